import type { OrderView } from '../../../contract/checkout';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';

export const PAYMENT_NOT_COMPLETED = 'Payment not completed';

/**
 * A checkout that never took the money: declined, replaced by a newer checkout, abandoned. The
 * customer cancelled nothing, and its numbers went back to the cart or to the newer checkout.
 * Only a paid order (an admin's cancel) or a refund says 'Cancelled' or 'Refunded'.
 */
export const paymentNotCompleted = (order: OrderView): boolean =>
  order.status === 'failed' || (order.status === 'cancelled' && !order.refund && !order.paidAt);

/** What happened to the order, in the customer's words. */
export function orderStatusLabel(order: OrderView): string {
  if (paymentNotCompleted(order)) return PAYMENT_NOT_COMPLETED;
  switch (order.status) {
    case 'completed':
      return 'Paid';
    case 'pending':
      return 'Awaiting payment';
    default:
      if (order.refund) return order.refund.refundedAt ? 'Refunded' : 'Refund in progress';
      return 'Cancelled';
  }
}

/** The refund, if any: how much, why, and when it went back (or that it is on its way). */
export function refundSummary(order: OrderView): string | null {
  const { refund } = order;
  if (!refund) return null;
  const when = refund.refundedAt
    ? `refunded on ${formatLongDate(refund.refundedAt)}`
    : 'refund on its way to your payment method';
  return `${formatPounds(refund.amount)} ${when}: ${refund.reason}`;
}

/** Why an order that is not paid was not paid, as far as the server told us. */
export const unpaidReason = (order: OrderView): string =>
  order.refund?.reason ?? order.notice ?? 'Payment has not been received for this order.';
