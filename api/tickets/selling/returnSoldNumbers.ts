import type { Knex } from 'knex';
import { recordTicketEvents, refsOf } from '../history/ticketHistory';

// The reverse of a sale (an admin cancels an order): its sold numbers go back on general sale.
//
//   sold --order cancelled--> available (no row)
//
// The caller holds the competition's row lock. The version bump and `tickets.released` come last
// in the transaction, through recordTicketChange (api/tickets/competitionVersions.ts).

/** What a return gave back, for recordTicketChange. */
export interface ReturnedNumbers {
  kind: 'returned';
  competitionId: number;
  /** Ascending. */
  numbers: number[];
}

/** Deletes the sold rows of one competition, counts them out of ticketsSold, and writes their history. */
export async function returnSoldNumbers(
  trx: Knex.Transaction,
  competitionId: number,
  tickets: ReadonlyArray<{ id: number; number: number }>,
  about: { orderId: number; userId: number | null; note: string },
  now: number,
): Promise<ReturnedNumbers> {
  await trx('competitions').where({ id: competitionId }).decrement('ticketsSold', tickets.length);
  await trx('tickets')
    .whereIn(
      'id',
      tickets.map((t) => t.id),
    )
    .delete();
  const numbers = tickets.map((t) => t.number).sort((a, b) => a - b);
  await recordTicketEvents(trx, refsOf(competitionId, numbers), 'cancelled', about, now);
  return { kind: 'returned', competitionId, numbers };
}
