import type { Knex } from 'knex';
import { lockRows } from '../../../db/locks';
import { Order } from '../../../db/models';
import type { EventBus } from '../../platform/events';
import type { Mailer } from '../../platform/mailer';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { type CancellationNotice, oweCancellationNotice } from '../orderEmails';
import { cancelForRefund, cancelOpen, cancelUnpaid, markFailed, markRefunded } from '../orderStatus';
import type { FulfilmentResult, PaymentDeps } from '../payment';

// The payment outcomes other than a sale: a payment that cannot buy its tickets is refunded (or,
// credit only, never charged), a failed card attempt leaves the order failed, and a payment the
// gateway cancelled cancels its order.

/**
 * A credit-only order that cannot be completed. Nothing was charged and its credit was never
 * debited, so there is no refund: the order is cancelled with the reason as its notice.
 */
export async function dropUnpaidOrder(
  deps: PaymentDeps,
  orderId: number,
  reason: string,
  now: number,
): Promise<FulfilmentResult> {
  await inUnitOfWork(deps, async (uow) => {
    if (await cancelUnpaid(uow.trx, orderId, reason, now))
      uow.emit('order.changed', { orderId, change: 'cancelled' });
  });
  return { outcome: 'not_completed', orderId, reason };
}

/**
 * Asks the gateway that took the order's payment to refund it, once per order (idempotency key),
 * and records the refund. 'pending' when it could not: logged, and the caller's path tries again.
 */
export async function refundAtGateway(
  deps: Pick<PaymentDeps, 'db' | 'events' | 'logger' | 'gateway' | 'mailer'>,
  order: Order,
  reason: string,
  /** The customer's notice once refunded, owed with the refund's record. */
  notice?: CancellationNotice,
): Promise<'refunded' | 'pending'> {
  if (!order.paymentIntentId || order.paymentProvider !== deps.gateway.name) {
    deps.logger.error(
      { orderId: order.id, provider: order.paymentProvider },
      'refund needs a gateway this server does not run',
    );
    return 'pending';
  }
  try {
    const refund = await deps.gateway.refund({
      intentId: order.paymentIntentId,
      // What is left of the card payment after any tickets refunded on their own (backOffice/partialRefund.ts).
      amountPence: order.totalPence - (order.refundedPence ?? 0),
      reason,
      orderId: order.id,
      idempotencyKey: `refund-order-${order.id}`,
    });
    await recordRefund(
      deps,
      order.id,
      { refundReference: refund.id, refundedPence: order.totalPence, refundedAt: Date.now() },
      notice,
    );
    return 'refunded';
  } catch (err) {
    deps.logger.error({ err, orderId: order.id }, 'refund failed; it stays pending until tried again');
    return 'pending';
  }
}

/**
 * The payment cannot buy its tickets: the order is cancelled with the reason, and the money sent
 * back through the gateway that took it (one refund per order, whatever the number of calls).
 * If the gateway cannot be reached the order keeps refundedAt null and the next delivery of the
 * same payment (or PATCH /api/orders/:id) tries again.
 */
export async function refundOrder(
  deps: PaymentDeps,
  orderId: number,
  reason: string,
  now = Date.now(),
): Promise<FulfilmentResult> {
  const locked = await inUnitOfWork(deps, async ({ trx }) => {
    const o = (await lockRows(trx, 'order', Order.query(trx).findById(orderId))) as Order | undefined;
    if (!o || o.status === 'completed') return { order: o, why: reason };
    return { order: o, why: await cancelForRefund(trx, o, reason, now) };
  });
  const { order, why } = locked;
  if (!order) return { outcome: 'rejected', orderId, reason: 'order not found' };
  if (order.status === 'completed') return { outcome: 'already_completed', orderId };
  if (order.refundedAt) return { outcome: 'refunded', orderId, reason: why, refundPending: false };

  const noticeOf = (pending: boolean): CancellationNotice => ({
    reason: why,
    refunds: order.totalPence > 0 ? [{ method: 'card', amountPence: order.totalPence }] : [],
    cardRefundPending: pending,
  });
  let pending = false;
  if (order.totalPence > 0) {
    pending = (await refundAtGateway(deps, order, why, noticeOf(false))) === 'pending';
    // Admins see the refund is still owed; the customer is told it is on its way.
    if (pending) await recordRefund(deps, orderId, null, noticeOf(true));
  } else {
    // Paid wholly by credit: credit is only debited on success, so nothing left the account.
    await recordRefund(deps, orderId, { refundedAt: Date.now() }, noticeOf(false));
  }
  return { outcome: 'refunded', orderId, reason: why, refundPending: pending };
}

/**
 * Records what the gateway refunded (null: nothing yet, the refund is pending) and tells admins
 * the order's refund changed; owes the customer's notice in the same transaction, so a crash
 * cannot record the refund and lose the notice. Called after the gateway answered, outside any
 * other unit of work.
 */
export async function recordRefund(
  deps: { db: Knex; events: EventBus; mailer?: Mailer },
  orderId: number,
  refunded: { refundReference?: string; refundedPence?: number; refundedAt: number } | null,
  notice?: CancellationNotice,
) {
  const owed = await inUnitOfWork(deps, async (uow) => {
    if (refunded) await markRefunded(uow.trx, orderId, refunded);
    uow.emit('order.changed', { orderId, change: 'refunded' });
    return notice ? oweCancellationNotice(uow.trx, orderId, notice) : null;
  });
  if (owed) await deps.mailer?.outbox.deliver([owed]);
}

/** The order a gateway payment was made for. */
export async function orderOfIntent(db: Knex, intentId: string): Promise<Order | undefined> {
  return (await Order.query(db).findOne({ paymentIntentId: intentId })) as Order | undefined;
}

/** A card attempt failed. The holds stay (until they expire) so the customer can try again. */
export async function recordPaymentFailure(deps: PaymentDeps, intentId: string, message: string) {
  const order = await orderOfIntent(deps.db, intentId);
  if (!order) return;
  await inUnitOfWork(deps, async (uow) => {
    // Never downgrades: a completed or cancelled order stays as it is.
    if (await markFailed(uow.trx, order.id, message, Date.now()))
      uow.emit('order.changed', { orderId: order.id, change: 'failed' });
  });
  deps.metrics?.payments.inc({ provider: order.paymentProvider ?? 'unknown', result: 'failed' });
}

/** The gateway cancelled the payment (abandoned, or replaced by a newer checkout). */
export async function recordPaymentCanceled(deps: PaymentDeps, intentId: string) {
  const order = await orderOfIntent(deps.db, intentId);
  if (!order) return;
  await inUnitOfWork(deps, async (uow) => {
    if (await cancelOpen(uow.trx, [order.id], {}, Date.now()))
      uow.emit('order.changed', { orderId: order.id, change: 'cancelled' });
  });
}
