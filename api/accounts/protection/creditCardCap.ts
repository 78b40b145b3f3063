import type { Knex } from 'knex';
import { ERROR_CODES } from '../../../contract/errors';
import { CREDIT_CARD_INSTANT_WIN } from '../../../contract/instantWins';
import { creditCardCapMessage, ukMonthStart } from '../../../contract/protection';
import { lockRows } from '../../../db/locks';
import { HttpError, notFound } from '../../platform/errors';
import { assertMayPlay } from '../../tickets/holdChecks';

// The credit-card cap (DCMS code: credit cards capped at £250 a month). A card's funding is known
// before it is charged (the sandbox's test card, Stripe's ConfirmationToken); it is recorded on the
// order in the same transaction that checks the cap, with the customer's row locked, so parallel
// confirmations queue and cannot both pass. Counted: credit-funded card payments paid this UK
// calendar month (by paidAt: an order made at 23:50 on the 31st and paid at 00:05 counts in the new
// month), and those being paid now (pending: their payment can only complete now); a cancelled,
// refunded or failed one is not.

export type CardFunding = 'credit' | 'debit' | 'prepaid' | 'unknown';

/** Card money charged (or being charged) to credit cards this UK month, leaving out one order. */
export async function creditCardSpentThisMonth(
  db: Knex,
  userId: number,
  now: number,
  exceptOrderId = 0,
): Promise<number> {
  const row = (await db('orders')
    .where({ userId, cardFunding: 'credit' })
    .where((paid) =>
      paid
        .where({ status: 'pending' })
        .orWhere((q) => q.where({ status: 'completed' }).where('paidAt', '>=', ukMonthStart(now))),
    )
    .whereNot('id', exceptOrderId)
    .sum({ total: 'totalPence' })
    .first()) as { total: number | string | null } | undefined;
  return Number(row?.total ?? 0);
}

/** Whether the order buys into a competition that has instant wins (then credit cards are refused). */
export async function hasInstantWinCompetition(trx: Knex, orderId: number): Promise<boolean> {
  const row = await trx('orderItems as i')
    .join('instantWins as w', 'w.competitionId', 'i.competitionId')
    .where('i.orderId', orderId)
    .first('w.id');
  return Boolean(row);
}

/**
 * Before the card is charged: 403 while the customer takes a break, 400 for a credit card in an
 * instant-win competition or one that would pass the cap; otherwise the card (funding, brand, last
 * four digits) is recorded on the order. Runs in its own transaction.
 */
export async function claimCardFunding(
  db: Knex,
  input: {
    orderId: number;
    userId: number;
    funding: CardFunding;
    capPence: number;
    /** The card's brand and last four digits, recorded with its funding (the order shows them). */
    brand?: string | null;
    last4?: string | null;
    /** The gateway's fingerprint of the card (the same card on two accounts: no referral reward). */
    fingerprint?: string | null;
  },
  now = Date.now(),
): Promise<void> {
  await db.transaction(async (trx) => {
    await lockRows(trx, 'user', trx('users').where({ id: input.userId }).first('id'));
    await assertMayPlay(trx, input.userId, now);
    const order = (await trx('orders')
      .where({ id: input.orderId, userId: input.userId })
      .first('totalPence')) as { totalPence: number } | undefined;
    if (!order) throw notFound('Payment not found');
    // DCMS code: no credit card at all for an instant-win competition (docs/draws.md#instant-wins).
    if (input.funding === 'credit' && (await hasInstantWinCompetition(trx, input.orderId))) {
      throw new HttpError(400, ERROR_CODES.creditCardInstantWin, CREDIT_CARD_INSTANT_WIN);
    }
    if (input.funding === 'credit') {
      const spent = await creditCardSpentThisMonth(trx, input.userId, now, input.orderId);
      if (spent + Number(order.totalPence) > input.capPence) {
        throw new HttpError(400, ERROR_CODES.creditCardCap, creditCardCapMessage(input.capPence), {
          capPence: input.capPence,
          leftPence: Math.max(input.capPence - spent, 0),
        });
      }
    }
    await trx('orders')
      .where({ id: input.orderId })
      .update({
        cardFunding: input.funding,
        cardBrand: input.brand ?? null,
        cardLast4: input.last4 ?? null,
        cardFingerprint: input.fingerprint ?? null,
        updatedAt: now,
      });
  });
}
