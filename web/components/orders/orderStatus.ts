import type { OrderView } from '../../../contract/checkout';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';

/** What happened to the order, in the customer's words. */
export function orderStatusLabel(order: OrderView): string {
  switch (order.status) {
    case 'completed':
      return 'Paid';
    case 'pending':
      return 'Awaiting payment';
    case 'failed':
      return 'Payment failed';
    case 'cancelled':
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
