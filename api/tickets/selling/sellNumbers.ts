import type { Knex } from 'knex';
import { isUniqueViolation } from '../../../db/dialect';
import { RetryTransaction } from '../../platform/unitOfWork';
import { recordTicketEvents, refsOf } from '../history/ticketHistory';

// Selling numbers: the one rule every sale follows, whether a payment (api/orders/fulfilment/),
// a postcard (api/orders/postal) or a test fixture sells them.
//
//   reserved (the buyer's own hold) or available --sale--> sold (order, buyer)
//
// The caller holds the competition's row lock and has checked the sale may happen. A sold row
// carries the same UNIQUE (competition_id, number) key as a hold, so a number someone took since
// the caller's read makes the whole transaction run again with a fresh read. The sale counts in
// ticketsSold and closes an auto-win competition on its last number. The version bump and event
// come last in the transaction, through recordTicketChange (api/tickets/competitionVersions.ts).

export interface NumberSale {
  competition: { id: number; autoWin: boolean; totalTickets: number };
  buyer: { orderId: number; userId: number | null; guestId: string | null };
  /** The buyer's own holds among the numbers sold: their rows become sold in place. */
  held?: ReadonlyArray<{ id: number; number: number }>;
  /** Ids of someone else's expired holds on numbers sold here: deleted (an expired hold blocks nobody). */
  staleRowIds?: readonly number[];
  /** Numbers without a row (once the stale ones are gone): inserted as sold rows. */
  free: readonly number[];
  /** A note for the numbers' history ('postal entry, …'). */
  note?: string;
}

/** What a sale sold, for recordTicketChange. */
export interface SoldNumbers {
  kind: 'sold';
  competitionId: number;
  /** Ascending. */
  numbers: number[];
  /** The sale sold an auto-win competition's last number and closed it (draw it after COMMIT). */
  closed: boolean;
}

/** Sells the numbers on the buyer's order: rows, history, ticketsSold and an auto-win close. */
export async function sellNumbers(
  trx: Knex.Transaction,
  sale: NumberSale,
  now: number,
): Promise<SoldNumbers> {
  const { competition, buyer } = sale;
  const held = sale.held ?? [];
  if (sale.staleRowIds?.length) await trx('tickets').whereIn('id', sale.staleRowIds).delete();
  if (held.length) {
    await trx('tickets')
      .whereIn(
        'id',
        held.map((r) => r.id),
      )
      .update({
        status: 'sold',
        orderId: buyer.orderId,
        userId: buyer.userId,
        cartItemId: null,
        expiresAt: null,
        isClaimed: true,
        updatedAt: now,
      });
  }
  if (sale.free.length) await insertSoldRows(trx, sale, now);
  const numbers = [...held.map((r) => r.number), ...sale.free].sort((a, b) => a - b);
  await recordTicketEvents(
    trx,
    refsOf(competition.id, numbers),
    'sold',
    { orderId: buyer.orderId, userId: buyer.userId, note: sale.note },
    now,
  );
  await trx('competitions').where({ id: competition.id }).increment('ticketsSold', numbers.length);
  const closed = competition.autoWin
    ? await trx('competitions')
        .where({ id: competition.id, status: 'active' })
        .where('ticketsSold', '>=', competition.totalTickets)
        .update({ status: 'ended', updatedAt: now })
    : 0;
  return { kind: 'sold', competitionId: competition.id, numbers, closed: closed > 0 };
}

async function insertSoldRows(trx: Knex.Transaction, { competition, buyer, free }: NumberSale, now: number) {
  try {
    await trx('tickets').insert(
      free.map((number) => ({
        competitionId: competition.id,
        number,
        status: 'sold',
        guestId: buyer.guestId,
        userId: buyer.userId,
        orderId: buyer.orderId,
        isClaimed: true,
        createdAt: now,
        updatedAt: now,
      })),
    );
  } catch (err) {
    // The number was held or sold a moment ago: start again from a fresh read.
    if (isUniqueViolation(err)) throw new RetryTransaction();
    throw err;
  }
}
