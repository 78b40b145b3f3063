import { describe, expect, it } from 'vitest';
import { inUnitOfWork, RetryTransaction } from '../../../api/platform/unitOfWork';
import { recordTicketChange } from '../../../api/tickets/competitionVersions';
import { returnSoldNumbers } from '../../../api/tickets/selling/returnSoldNumbers';
import { sellNumbers } from '../../../api/tickets/selling/sellNumbers';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { useServiceDatabase } from '../../support/rolledBack';
import { engineUnavailable } from '../../support/testDatabase';

// Selling a number (api/tickets/selling/) called directly, in a transaction rolled back per test.

describe.skipIf(engineUnavailable())('selling numbers, below HTTP', () => {
  const { inRollback } = useServiceDatabase();

  it('counts a sale in ticketsSold, closes an auto-win competition on its last number, and returns', () =>
    inRollback(async (r) => {
      const competitionId = await insertCompetition(r.db, { totalTickets: 3, autoWin: true });
      const buyer = await insertUser(r.db);
      const orderId = await sellTickets(r.db, competitionId, buyer, [1, 2, 3]);
      expect(await r.db('competitions').where({ id: competitionId }).first('ticketsSold', 'status')).toEqual({
        ticketsSold: 3,
        status: 'ended',
      });
      const sold = await r.db('tickets').where({ competitionId, orderId }).select('id', 'number');
      const returned = await inUnitOfWork(r, async (uow) => {
        const back = await returnSoldNumbers(
          uow.trx,
          competitionId,
          sold,
          { orderId, userId: buyer, note: 'test' },
          Date.now(),
        );
        await recordTicketChange(uow, back);
        return back;
      });
      expect(returned.numbers).toEqual([1, 2, 3]);
      expect(await r.db('tickets').where({ competitionId }).count({ n: '*' })).toEqual([{ n: 0 }]);
      expect((await r.db('competitions').where({ id: competitionId }).first('ticketsSold')).ticketsSold).toBe(
        0,
      );
      // The fixture's sale publishes on a bus of its own; the return publishes here.
      expect(r.published.map((e) => e.type)).toEqual(['tickets.released']);
      expect(r.published[0]?.payload).toMatchObject({ competitionId, numbers: [1, 2, 3] });
    }));

  it('never sells a number twice: a second sale of it asks for the transaction to run again', () =>
    inRollback(async (r) => {
      const competitionId = await insertCompetition(r.db, { totalTickets: 10 });
      const buyer = await insertUser(r.db);
      await sellTickets(r.db, competitionId, buyer, [5]);
      const competition = { id: competitionId, autoWin: false, totalTickets: 10 };
      const again = await r.db
        .transaction((trx) =>
          sellNumbers(
            trx,
            { competition, buyer: { orderId: 999, userId: buyer, guestId: null }, free: [5] },
            Date.now(),
          ),
        )
        .catch((err: unknown) => err);
      expect(again).toBeInstanceOf(RetryTransaction);
      expect(await r.db('tickets').where({ competitionId, number: 5 }).count({ n: '*' })).toEqual([{ n: 1 }]);
    }));
});
