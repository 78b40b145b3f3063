import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { paidPenceOf } from '../../contract/bundles';
import { formatOrderNumber } from '../../contract/checkout';
import { User } from '../../db/models';
import {
  type OrderCancelledProps,
  orderCancelledEmail,
  orderConfirmationEmail,
} from '../platform/email/templates/orders';
import type { Mailer } from '../platform/mailer';
import { type OutboxKey, oweMail } from '../platform/outbox/owe';
import { loadOrder } from './orders';

// The order e-mails (docs/emails.md#the-outbox): owed in the transaction that records the fact
// (the sale, the cancellation notice's claim), sent after COMMIT and retried by the outbox worker
// until sent. A failure never undoes or fails the sale, cancellation or refund.

interface MailDeps {
  db: Knex;
  logger: Logger;
  mailer: Mailer;
}

const nameOf = (u: User) => u.firstName?.trim() || u.username;
const subjectOf = (orderId: number) => `order:${orderId}`;

/** The customer an order's e-mail goes to, unless the account is gone. */
async function customerOf(trx: Knex, userId: number | null | undefined) {
  const user = userId ? await User.query(trx).findById(userId) : undefined;
  return user && !user.deletedAt ? user : undefined;
}

/**
 * Owes the confirmation of a paid order, in the sale's transaction: one per order however often
 * the sale's report arrives. Null when there is nobody to write to.
 */
export async function oweConfirmation(trx: Knex, orderId: number, now: number): Promise<OutboxKey | null> {
  const order = await loadOrder(trx, orderId);
  const user = await customerOf(trx, order?.userId);
  if (!order || !user) return null;
  return oweMail(
    trx,
    {
      template: orderConfirmationEmail,
      subject: subjectOf(order.id),
      recipient: { to: user.email, userId: user.id },
      props: {
        name: nameOf(user),
        orderNumber: formatOrderNumber(order.id),
        placedAt: Number(order.paidAt ?? order.createdAt),
        lines: [...(order.items ?? [])]
          .sort((a, b) => a.id - b.id)
          .map((i) => ({
            title: i.title,
            quantity: i.quantity,
            numbers: i.selectedNumbers,
            totalPence: paidPenceOf(i),
          })),
        subtotalPence: order.subtotalPence,
        creditAppliedPence: order.creditAppliedPence,
        totalPence: order.totalPence,
        notice: order.notice,
        orderLink: `/confirmation/${order.id}`,
      },
    },
    now,
  );
}

export const ORDER_CONFIRMATION = orderConfirmationEmail.name;

/** orders.confirmation_sent_at, set in the transaction that marks the outbox row sent. */
export async function markConfirmationSent(trx: Knex.Transaction, subject: string, sentAt: number) {
  const orderId = Number(subject.split(':')[1]);
  if (Number.isInteger(orderId))
    await trx('orders').where({ id: orderId }).update({ confirmationSentAt: sentAt });
}

export type CancellationNotice = Pick<OrderCancelledProps, 'reason' | 'refunds' | 'cardRefundPending'>;

/**
 * 'Your order has been cancelled (and refunded)', with each amount and where it went, owed in the
 * caller's transaction (the one that records the refund's outcome). Once per order:
 * orders.cancellation_notice_sent_at is claimed with it, so a refund retried by the next webhook
 * delivery owes nothing more. Null when nothing is owed.
 */
export async function oweCancellationNotice(
  trx: Knex,
  orderId: number,
  notice: CancellationNotice,
): Promise<OutboxKey | null> {
  const order = await loadOrder(trx, orderId);
  const user = await customerOf(trx, order?.userId);
  if (!order || !user) return null;
  const claimed = await trx('orders')
    .where({ id: orderId })
    .whereNull('cancellationNoticeSentAt')
    .update({ cancellationNoticeSentAt: Date.now() });
  if (!claimed) return null;
  return oweMail(trx, {
    template: orderCancelledEmail,
    subject: subjectOf(order.id),
    recipient: { to: user.email, userId: user.id },
    props: { name: nameOf(user), orderNumber: formatOrderNumber(order.id), ...notice },
  });
}

/** The cancellation notice in a transaction of its own, then sent; for when no other records it. */
export async function sendCancellationNotice(deps: MailDeps, orderId: number, notice: CancellationNotice) {
  try {
    const key = await deps.db.transaction((trx) => oweCancellationNotice(trx, orderId, notice));
    if (key) await deps.mailer.outbox.deliver([key]);
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order cancellation e-mail could not be owed');
  }
}
