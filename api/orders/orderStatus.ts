import type { Knex } from 'knex';
import type { Order } from '../../db/models';

// An order's status changes only through these transitions, each one conditional UPDATE that
// never downgrades an order another path has moved on:
//
//   pending | failed  --markPaid-->        completed   (fulfilment wrote the sale)
//   pending | failed  --markFailed-->      failed      (a card attempt failed; holds stay)
//   pending | failed  --cancelOpen-->      cancelled   (replaced, abandoned, gateway down)
//   pending | failed  --cancelUnpaid-->    cancelled   (credit-only and cannot complete)
//   not completed     --cancelForRefund--> cancelled   (the payment cannot buy its tickets)
//   not cancelled     --cancel-->          cancelled   (an admin cancels)
//   a refund sent     --markRefunded-->    refundedAt set, once

/** An order whose payment may still arrive: the customer has at most one. */
export const OPEN_STATUSES = ['pending', 'failed'] as const;

const openOrder = (db: Knex, orderIds: number[]) =>
  db('orders')
    .whereIn('id', orderIds)
    .whereIn('status', [...OPEN_STATUSES]);

/** The sale is written: completed and paid, with what the customer is told (replacement numbers). */
export async function markPaid(trx: Knex.Transaction, orderId: number, notice: string | null, now: number) {
  const changed = await openOrder(trx, [orderId]).update({
    status: 'completed',
    paidAt: now,
    notice,
    failureMessage: null,
    updatedAt: now,
  });
  if (!changed) throw new Error(`order ${orderId} was not open when its sale was written`);
}

/** A card attempt failed; true when the order changed. */
export async function markFailed(trx: Knex.Transaction, orderId: number, message: string, now: number) {
  const changed = await openOrder(trx, [orderId]).update({
    status: 'failed',
    failureMessage: message.slice(0, 255),
    updatedAt: now,
  });
  return changed > 0;
}

/**
 * Open orders that will never be paid: replaced by a newer checkout, cancelled at the gateway, or
 * left without a payment. Returns how many changed.
 */
export function cancelOpen(
  db: Knex,
  orderIds: number[],
  why: { notice?: string; failureMessage?: string },
  now: number,
): Promise<number> {
  return openOrder(db, orderIds).update({ status: 'cancelled', cancelledAt: now, ...why, updatedAt: now });
}

/**
 * A credit-only order that cannot complete: nothing was charged, so it is cancelled with the reason
 * as its notice. One already cancelled (replaced by a newer checkout) keeps its time and gets the
 * reason. True when this cancelled it.
 */
export async function cancelUnpaid(trx: Knex.Transaction, orderId: number, reason: string, now: number) {
  if (await cancelOpen(trx, [orderId], { notice: reason }, now)) return true;
  await trx('orders').where({ id: orderId, status: 'cancelled' }).update({ notice: reason });
  return false;
}

/**
 * The payment cannot buy its tickets (the order is locked and not completed): cancelled, keeping
 * an earlier cancel's time and reason. Returns the reason its money goes back.
 */
export async function cancelForRefund(trx: Knex.Transaction, order: Order, reason: string, now: number) {
  const refundReason = order.refundReason ?? reason;
  if (!order.refundReason || order.status !== 'cancelled') {
    await trx('orders')
      .where({ id: order.id })
      .whereNot('status', 'completed')
      .update({ status: 'cancelled', cancelledAt: order.cancelledAt ?? now, refundReason, updatedAt: now });
  }
  return refundReason;
}

/** An admin cancels the (locked) order; `refundReason` when its payment goes back. */
export async function cancel(
  trx: Knex.Transaction,
  orderId: number,
  refundReason: string | null,
  now: number,
) {
  await trx('orders')
    .where({ id: orderId })
    .whereNot('status', 'cancelled')
    .update({ status: 'cancelled', cancelledAt: now, refundReason, updatedAt: now });
}

/** What the gateway refunded, recorded once (refundedAt stays as first written). */
export async function markRefunded(
  trx: Knex.Transaction,
  orderId: number,
  refunded: { refundReference?: string; refundedPence?: number; refundedAt: number },
) {
  await trx('orders').where({ id: orderId }).whereNull('refundedAt').update(refunded);
}
