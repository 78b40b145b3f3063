import { describe, expect, it } from 'vitest';
import { PublishOrder } from '../../api/platform/unitOfWork';

// Units of work whose COMMITs are answered out of order still publish in version order.
describe('PublishOrder', () => {
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 5));
    return done;
  };

  it('holds a later version of a competition until the earlier one has published', async () => {
    const order = new PublishOrder();
    const first = order.open();
    const second = order.open();
    first.record(1, 7);
    second.record(1, 8);
    const secondTurn = second.turn(); // its COMMIT was answered first
    expect(await settled(secondTurn)).toBe(false);
    await first.turn();
    first.settle();
    expect(await settled(secondTurn)).toBe(true);
  });

  it('lets the next go when the earlier unit rolls back, and never holds other competitions', async () => {
    const order = new PublishOrder();
    const rolledBack = order.open();
    const next = order.open();
    const elsewhere = order.open();
    rolledBack.record(1, 3);
    next.record(1, 4);
    elsewhere.record(2, 1);
    expect(await settled(elsewhere.turn())).toBe(true);
    const nextTurn = next.turn();
    expect(await settled(nextTurn)).toBe(false);
    rolledBack.settle();
    expect(await settled(nextTurn)).toBe(true);
  });

  it('waits for a unit whose version comes with its COMMIT, then only if it came first', async () => {
    const order = new PublishOrder();
    const procedure = order.open();
    const anywhere = order.open();
    const general = order.open();
    procedure.expect(1); // a hot-path CALL in flight on competition 1
    anywhere.expect(null); // a release whose competition is not known yet
    general.record(1, 5);
    const generalTurn = general.turn();
    expect(await settled(generalTurn)).toBe(false);
    anywhere.record(2, 9); // another competition: no reason to wait for it
    expect(await settled(generalTurn)).toBe(false);
    procedure.record(1, 4); // it came first: its events go first
    expect(await settled(generalTurn)).toBe(false);
    await procedure.turn();
    procedure.settle();
    expect(await settled(generalTurn)).toBe(true);
    general.settle();
    anywhere.settle();
  });

  it('does not wait for an expected unit that turns out later, or rolls back', async () => {
    const order = new PublishOrder();
    const later = order.open();
    const rolledBack = order.open();
    const first = order.open();
    later.expect(1);
    rolledBack.expect(1);
    first.record(1, 3);
    const firstTurn = first.turn();
    later.record(1, 4);
    rolledBack.settle();
    expect(await settled(firstTurn)).toBe(true);
    expect(await settled(later.turn())).toBe(false);
    first.settle();
    expect(await settled(later.turn())).toBe(true);
  });
});
