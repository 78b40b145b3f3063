import type { Knex } from 'knex';
import { awardInstantWins, winnerNameOf } from '../../api/orders/instantWins/awards';
import type { SeedCompetition } from './demoCompetitions';

/**
 * The cards the seeded orders were paid with, as the gateway would report them (Stripe's test
 * debit cards): Visa Debit ••5556 and Mastercard Debit ••8210. Debit only, so no seeded order
 * counts towards a customer's credit-card cap (and instant-win competitions refuse credit cards).
 * Taken in turn, not from the random stream, so the seeded numbers and buyers stay as they were.
 */
export const SEED_CARDS = [
  { cardBrand: 'visa', cardFunding: 'debit', cardLast4: '5556' },
  { cardBrand: 'mastercard', cardFunding: 'debit', cardLast4: '8210' },
] as const;

/** One seeded sale: a completed order, its line and entry, its instant wins; the ticket rows to insert. */
export async function insertSale(
  trx: Knex.Transaction,
  sale: {
    competitionId: number;
    c: SeedCompetition;
    userId: number;
    numbers: number[];
    paidAt: number;
    /** The card it was paid with (the first of SEED_CARDS unless told). */
    card?: (typeof SEED_CARDS)[number];
  },
): Promise<Record<string, unknown>[]> {
  const { competitionId, c, userId, numbers: bought, paidAt, card = SEED_CARDS[0] } = sale;
  const quantity = bought.length;
  const total = quantity * c.ticketPricePence;
  const [orderId] = await trx('orders').insert({
    userId,
    paymentProvider: 'seed',
    ...card,
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
    paidPence: c.ticketPricePence * quantity,
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
