import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../api/platform/errors';
import { addToCart, removeItem } from '../../../api/tickets/reservations';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { type Rollback, useServiceDatabase } from '../../support/rolledBack';
import { engineUnavailable } from '../../support/testDatabase';

// The hold rules called as services (api/tickets/reservations.ts), each test in a transaction that
// is rolled back. The HTTP tests in tests/api/tickets/ keep the contract: statuses, bodies, pushes.

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => (err instanceof HttpError ? { status: err.status, message: err.message } : err),
  );

describe.skipIf(engineUnavailable())('holds, below HTTP', () => {
  const { inRollback } = useServiceDatabase();
  const deps = (r: Rollback) => ({ db: r.db, events: r.events, ttlSeconds: 600 });

  it('holds chosen numbers all or none: one taken number refuses the whole hold', () =>
    inRollback(async (r) => {
      const competitionId = await insertCompetition(r.db, { totalTickets: 20 });
      const first = { guestId: 'guest-a', userId: null };
      const second = { guestId: 'guest-b', userId: null };
      const held = await addToCart(
        deps(r),
        first,
        { competitionId, quantity: 2, selectedNumbers: [3, 4] },
        true,
      );
      expect(held.heldNumbers).toEqual([3, 4]);
      expect(r.published.map((e) => e.type)).toContain('tickets.reserved');

      const refused = await refusal(
        addToCart(deps(r), second, { competitionId, quantity: 2, selectedNumbers: [4, 5] }, true),
      );
      expect(refused).toMatchObject({ status: 409 });
      // Number 5 was not held by the refused attempt.
      const rows = await r.db('tickets').where({ competitionId }).orderBy('number').pluck('number');
      expect(rows).toEqual([3, 4]);
    }));

  it('never hands a sold number to a Lucky Dip, and refuses a dip larger than what is left', () =>
    inRollback(async (r) => {
      const competitionId = await insertCompetition(r.db, { totalTickets: 5 });
      const buyer = await insertUser(r.db);
      await sellTickets(r.db, competitionId, buyer, [1, 2, 3]);
      const dip = await addToCart(
        deps(r),
        { guestId: 'guest-c', userId: null },
        { competitionId, quantity: 2 },
        true,
      );
      expect([...dip.heldNumbers].sort()).toEqual([4, 5]);
      const more = await refusal(
        addToCart(deps(r), { guestId: 'guest-d', userId: null }, { competitionId, quantity: 1 }, true),
      );
      expect(more).toMatchObject({ status: 409 });
    }));

  it('asks the skill question before holding, and releases a removed item', () =>
    inRollback(async (r) => {
      const competitionId = await insertCompetition(r.db, { totalTickets: 10 });
      const owner = { guestId: 'guest-e', userId: null };
      const unanswered = await refusal(
        addToCart(deps(r), owner, { competitionId, quantity: 1, selectedNumbers: [7] }, false),
      );
      expect(unanswered).toMatchObject({ status: 403 });
      const held = await addToCart(
        deps(r),
        owner,
        { competitionId, quantity: 1, selectedNumbers: [7] },
        true,
      );
      await removeItem(deps(r), owner, held.item.id);
      expect(await r.db('tickets').where({ competitionId }).count({ n: '*' })).toEqual([{ n: 0 }]);
      const types = r.published.map((e) => e.type);
      expect(types.filter((t) => t.startsWith('tickets.'))).toEqual(['tickets.reserved', 'tickets.released']);
    }));
});
