import type { Knex } from 'knex';
import { awardInstantWins, winnerNameOf } from '../../api/orders/instantWins/awards';
import type { SeedCompetition } from './demoCompetitions';

/** One seeded sale: a completed order, its line and entry, its instant wins; the ticket rows to insert. */
export async function insertSale(
  trx: Knex.Transaction,
  sale: { competitionId: number; c: SeedCompetition; userId: number; numbers: number[]; paidAt: number },
): Promise<Record<string, unknown>[]> {
  const { competitionId, c, userId, numbers: bought, paidAt } = sale;
  const quantity = bought.length;
  const total = quantity * c.ticketPricePence;
  const [orderId] = await trx('orders').insert({
    userId,
    paymentProvider: 'seed',
    subtotalPence: total,
    creditAppliedPence: 0,
    totalPence: total,
    currency: 'gbp',
    status: 'completed',
    paidAt,
    createdAt: paidAt,
    updatedAt: paidAt,
  });
  await trx('orderItems').insert({
    orderId,
    competitionId,
    title: c.title,
    ticketPricePence: c.ticketPricePence,
    quantity,
    selectedNumbers: JSON.stringify(bought),
    createdAt: paidAt,
  });
  await trx('userEntries').insert({
    userId,
    competitionId,
    orderId,
    ticketNumbers: JSON.stringify(bought),
    purchasedAt: paidAt,
  });
  if (c.instantWins) {
    const won = { competitionId, numbers: bought, userId, orderId: Number(orderId) };
    await awardInstantWins(trx, { ...won, winnerName: () => winnerNameOf(trx, userId) }, paidAt);
  }
  return bought.map((number) => ({
    competitionId,
    number,
    status: 'sold',
    userId,
    orderId,
    isClaimed: true,
    createdAt: paidAt,
    updatedAt: paidAt,
  }));
}
