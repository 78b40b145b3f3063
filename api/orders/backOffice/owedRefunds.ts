import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { PaymentGateway } from '../../payments/gateway';
import type { FaultInjector } from '../../platform/faults';

// Card refunds of part of an order (partialRefund.ts): owed in the transaction that gives the
// tickets back, then sent. The gateway is asked with the row's own idempotency key, so a refund the
// gateway did but we failed to record is not paid twice when the reconciler tries again.

export interface OwedRefundDeps {
  db: Knex;
  logger: Logger;
  gateway: PaymentGateway;
  faults?: FaultInjector;
}

export interface OwedRefund {
  id: number;
  orderId: number;
  amountPence: number;
  reason: string;
  idempotencyKey: string;
}

/** In the refund's transaction: the money owed back to the card, as a row. */
export async function oweCardRefund(
  trx: Knex.Transaction,
  refund: Omit<OwedRefund, 'id'>,
  now: number,
): Promise<OwedRefund> {
  const [id] = await trx('orderRefunds').insert({ ...refund, status: 'owed', attempts: 0, createdAt: now });
  return { ...refund, id: Number(id) };
}

/** Asks the gateway for one owed refund; 'sent' once it has, 'owed' (and why, on the row) if not. */
export async function sendOwedRefund(deps: OwedRefundDeps, refund: OwedRefund): Promise<'sent' | 'owed'> {
  const order = await deps
    .db('orders')
    .where({ id: refund.orderId })
    .first('paymentIntentId', 'paymentProvider');
  try {
    if (!order?.paymentIntentId || order.paymentProvider !== deps.gateway.name)
      throw new Error(`the order's payment is not one of ${deps.gateway.name}'s`);
    deps.faults?.fail('partial-refund-fails');
    const done = await deps.gateway.refund({
      intentId: order.paymentIntentId,
      amountPence: refund.amountPence,
      reason: refund.reason,
      orderId: refund.orderId,
      idempotencyKey: refund.idempotencyKey,
    });
    await deps
      .db('orderRefunds')
      .where({ id: refund.id, status: 'owed' })
      .update({ status: 'sent', reference: done.id, sentAt: Date.now(), lastError: null });
    return 'sent';
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.logger.error(
      { err, orderId: refund.orderId, refundId: refund.id },
      'card refund still owed; retried later',
    );
    await deps
      .db('orderRefunds')
      .where({ id: refund.id, status: 'owed' })
      .update({ attempts: deps.db.raw('attempts + 1'), lastError: message.slice(0, 500) });
    return 'owed';
  }
}

/**
 * The reconciler's part: every refund still owed that was made before `cutoff` (the request that
 * owed it has had its own try). Returns the ids sent.
 */
export async function sendOwedRefunds(deps: OwedRefundDeps, cutoff: number): Promise<number[]> {
  const owed = (await deps
    .db('orderRefunds')
    .where({ status: 'owed' })
    .where('createdAt', '<=', cutoff)
    .orderBy('id')
    .limit(100)
    .select('id', 'orderId', 'amountPence', 'reason', 'idempotencyKey')) as OwedRefund[];
  const sent: number[] = [];
  for (const refund of owed)
    if ((await sendOwedRefund(deps, refund)) === 'sent') sent.push(Number(refund.id));
  return sent;
}
