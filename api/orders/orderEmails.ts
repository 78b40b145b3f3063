import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { formatOrderNumber } from '../../contract/checkout';
import { User } from '../../db/models';
import {
  type OrderCancelledProps,
  sendOrderCancelled,
  sendOrderConfirmation,
} from '../platform/email/templates/orders';
import type { Mailer } from '../platform/mailer';
import { loadOrder } from './orders';

// The order e-mails, after COMMIT: the data of an order turned into its template's props. A
// failure is logged and never undoes or fails the sale, cancellation or refund.

interface MailDeps {
  db: Knex;
  logger: Logger;
  mailer: Mailer;
}

const nameOf = (u: User) => u.firstName?.trim() || u.username;

/** The confirmation e-mail of a paid order; orders.confirmation_sent_at records it. */
export async function sendConfirmation(deps: MailDeps, orderId: number) {
  try {
    const order = await loadOrder(deps.db, orderId);
    const user = order?.userId ? await User.query(deps.db).findById(order.userId) : undefined;
    if (!order || !user || user.deletedAt) return;
    const sent = await sendOrderConfirmation(
      deps.mailer,
      { to: user.email, userId: user.id },
      {
        name: nameOf(user),
        orderNumber: formatOrderNumber(order.id),
        placedAt: Number(order.paidAt ?? order.createdAt),
        lines: [...(order.items ?? [])]
          .sort((a, b) => a.id - b.id)
          .map((i) => ({
            title: i.title,
            quantity: i.quantity,
            numbers: i.selectedNumbers,
            totalPence: i.ticketPricePence * i.quantity,
          })),
        subtotalPence: order.subtotalPence,
        creditAppliedPence: order.creditAppliedPence,
        totalPence: order.totalPence,
        notice: order.notice,
        orderLink: `/confirmation/${order.id}`,
      },
    );
    await deps.db('orders').where({ id: orderId }).update({ confirmationSentAt: Date.now() });
    deps.logger.info({ orderId, sent }, 'order confirmation sent');
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order confirmation e-mail failed');
  }
}

/**
 * 'Your order has been cancelled (and refunded)', with each amount and where it went. Sent once
 * per order: orders.cancellation_notice_sent_at is claimed first, so a refund retried by the next
 * webhook delivery does not write again.
 */
export async function sendCancellationNotice(
  deps: MailDeps,
  orderId: number,
  notice: Pick<OrderCancelledProps, 'reason' | 'refunds' | 'cardRefundPending'>,
) {
  try {
    const order = await loadOrder(deps.db, orderId);
    const user = order?.userId ? await User.query(deps.db).findById(order.userId) : undefined;
    if (!order || !user || user.deletedAt) return;
    const claimed = await deps
      .db('orders')
      .where({ id: orderId })
      .whereNull('cancellationNoticeSentAt')
      .update({ cancellationNoticeSentAt: Date.now() });
    if (!claimed) return;
    const sent = await sendOrderCancelled(
      deps.mailer,
      { to: user.email, userId: user.id },
      { name: nameOf(user), orderNumber: formatOrderNumber(order.id), ...notice },
    );
    deps.logger.info({ orderId, sent }, 'order cancellation notice sent');
  } catch (err) {
    deps.logger.error({ err, orderId }, 'order cancellation e-mail failed');
  }
}
