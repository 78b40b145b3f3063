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
});
