import styled from 'styled-components';
import { Link } from 'wouter';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import type { OrderView } from '../../../contract/checkout';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { useRoute } from '../../api/call';
import { ErrorBox } from '../ui/Form';
import { Card } from '../ui/Page';
import { orderStatusLabel, paymentNotCompleted, refundSummary } from './orderStatus';

const Orders = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  > li { border: 1px solid ${({ theme }) => theme.colors.border}; border-radius: ${({ theme }) => theme.radii.md}; padding: ${({ theme }) => theme.space.md}; display: grid; gap: ${({ theme }) => theme.space.sm}; }
  header { display: flex; flex-wrap: wrap; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; }
  h3 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.md}; }
  ul { margin: 0; padding-left: ${({ theme }) => theme.space.lg}; }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
  a { color: ${({ theme }) => theme.colors.info}; font-weight: 600; }
`;

const HistoryCard = styled(Card)`
  margin-top: ${({ theme }) => theme.space.lg};
  h2 { margin: 0 0 ${({ theme }) => theme.space.md}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xl}; }
`;

const Status = styled.span`
  font-weight: 700;
  &[data-status='completed'] { color: ${({ theme }) => theme.colors.success}; }
  &[data-status='cancelled'] { color: ${({ theme }) => theme.colors.danger}; }
  &[data-status='not-completed'] { color: ${({ theme }) => theme.colors.textMuted}; }
`;

function OrderEntry({ order }: { order: OrderView }) {
  const refund = refundSummary(order);
  // A checkout that took no money held its numbers only for a while: they are not the customer's.
  const unpaid = paymentNotCompleted(order);
  return (
    <li data-testid="order-history-item">
      <header>
        <h3>{order.orderNumber}</h3>
        <Status data-status={unpaid ? 'not-completed' : order.status}>{orderStatusLabel(order)}</Status>
      </header>
      <small>
        {formatLongDate(order.paidAt ?? order.createdAt)} · {order.paymentMethod} ·{' '}
        {formatPounds(order.subtotal)}
        {order.creditApplied > 0 && ` (${formatPounds(order.creditApplied)} in site credit)`}
      </small>
      <ul>
        {order.items.map((item) => (
          <li key={item.id}>
            {item.title}: {item.quantity} × {formatPounds(item.ticketPrice)}
            {item.saved ? ` = ${formatPounds(item.lineTotal)} (multi-buy)` : ''}
            {item.numbers.length > 0 && !unpaid && <small> · numbers {item.numbers.join(', ')}</small>}
          </li>
        ))}
      </ul>
      {refund && <p>{refund}</p>}
      {order.paidAt && <Link href={`/orders/${order.id}/receipt`}>Receipt for {order.orderNumber}</Link>}
    </li>
  );
}

/** My Account's order history: every order with its items, numbers, payment, status and refund. */
export function OrderHistory() {
  const orders = useRoute<typeof ORDER_ROUTES.orders>({ method: 'GET', path: '/api/orders' }, {});
  return (
    <HistoryCard aria-labelledby="orders-title">
      <h2 id="orders-title">Order history</h2>
      {orders.error && <ErrorBox>We couldn't load your orders.</ErrorBox>}
      {orders.data?.length === 0 && <p>You have no orders yet.</p>}
      {orders.data && orders.data.length > 0 && (
        <Orders aria-label="Your orders">
          {orders.data.map((order) => (
            <OrderEntry key={order.id} order={order} />
          ))}
        </Orders>
      )}
    </HistoryCard>
  );
}
