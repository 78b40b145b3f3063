import { Order } from '../../../db/models';
import { settleReferral } from '../../accounts/referrals/referralRewards';
import { drawAfterSellOut } from '../../draws/draws';
import type { OutboxKey } from '../../platform/outbox/owe';
import { inUnitOfWork, type UnitOfWork } from '../../platform/unitOfWork';
import { cartChanged } from '../../tickets/cartRevision';
import { emitInstantWins, oweInstantWinEmails } from '../instantWins/awards';
import { oweConfirmation } from '../orderEmails';
import type { FulfilmentResult, PaymentDeps, PaymentReport } from '../payment';
import { decideFulfilment, paidByCredit } from './decision';
import { dropUnpaidOrder, orderOfIntent, refundOrder } from './outcomes';
import { applySale, type Sale } from './sale';

// Fulfilment: the one place where money received becomes sold tickets, for every gateway.
//
//   reserved (the customer's holds) --payment succeeded--> sold (order, user)
//
// Idempotent: the order row is locked first and a completed order is left alone, so the same
// success delivered any number of times (webhook retries, the sandbox form, PATCH /api/orders)
// sells once. Transactional: tickets, entries, credit, cart and order change together or not at
// all, with the e-mails they owe (the outbox); events are published and the e-mails sent only
// after COMMIT. Deciding is in decision.ts,
// writing the sale in sale.ts, the other outcomes (refund, failure, cancel) in outcomes.ts.

/**
 * Turns a reported payment into sold tickets, once. Safe to call any number of times, from any
 * gateway path, concurrently. Never throws for a business reason: a payment that cannot be
 * honoured is refunded and reported as such.
 */
export async function fulfilPayment(
  deps: PaymentDeps,
  report: PaymentReport,
  now = Date.now(),
): Promise<FulfilmentResult> {
  const result = await settlePayment(deps, report, now);
  deps.metrics?.payments.inc({ provider: report.provider, result: result.outcome });
  return result;
}

async function settlePayment(
  deps: PaymentDeps,
  report: PaymentReport,
  now: number,
): Promise<FulfilmentResult> {
  const { db, logger } = deps;
  const found = report.intentId
    ? await orderOfIntent(db, report.intentId)
    : report.orderId
      ? ((await Order.query(db).findById(report.orderId)) as Order | undefined)
      : undefined;
  if (!found || (report.orderId !== null && report.orderId !== found.id)) {
    logger.warn({ report, orderId: found?.id }, 'payment for no matching order: nothing fulfilled');
    return { outcome: 'rejected', orderId: found?.id ?? report.orderId, reason: 'no matching order' };
  }
  const userId = found.userId;
  if (!userId) return { outcome: 'rejected', orderId: found.id, reason: 'order has no customer' };
  const result = await inUnitOfWork(deps, async (uow) => {
    const decision = await decideFulfilment(uow.trx, found.id, userId, report, now);
    if (decision.kind !== 'sell') return decision;
    const sale = await applySale(uow, decision, now);
    await emitSale(uow, found.id, sale);
    // Owed with the sale itself: a crash after COMMIT cannot lose them (the outbox sends them).
    const mail = [
      await oweConfirmation(uow.trx, found.id, now),
      ...(sale.instantWins.length ? await oweInstantWinEmails(uow.trx, found.id, now) : []),
    ].filter((k): k is OutboxKey => k !== null);
    return { kind: 'sold' as const, ...sale, mail };
  });
  if (result.kind === 'refund') {
    return paidByCredit(found)
      ? dropUnpaidOrder(deps, found.id, result.reason, now)
      : refundOrder(deps, found.id, result.reason, now);
  }
  if (result.kind === 'already') return { outcome: 'already_completed', orderId: found.id };
  if (result.kind === 'rejected') {
    logger.error({ report, orderId: found.id, reason: result.reason }, 'payment does not match its order');
    return { outcome: 'rejected', orderId: found.id, reason: result.reason };
  }

  deps.faults?.reach('after-sale-committed');
  await deps.mailer.outbox.deliver(result.mail);
  // A referral waiting for this first paid order (and a confirmed address) is settled now.
  await settleReferral(db, userId, now).catch((err) => logger.error({ err, userId }, 'referral not settled'));
  // Sold out: draw now (exactly once, however many sales and processes race to this point).
  for (const s of result.sold) {
    if (s.closed) await drawAfterSellOut(deps, s.competitionId);
  }
  return { outcome: 'completed', orderId: found.id };
}

/**
 * What a sale tells watchers after COMMIT besides its numbers (recorded with the versions): the
 * instant wins, the cart and the order.
 */
async function emitSale(uow: UnitOfWork, orderId: number, { owner, instantWins }: Sale) {
  emitInstantWins(uow, instantWins);
  await cartChanged(uow, owner);
  uow.emit('order.changed', { orderId, change: 'paid' });
}
