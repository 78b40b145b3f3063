import { Fragment, useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import type { AdminOrderDetail } from '../../../contract/admin';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { messageOf } from '../../api/client';
import { AdminHeader, StatusBadge } from '../../components/admin/AdminUi';
import { AuditTrail } from '../../components/admin/AuditTrail';
import { CancelOrderDialog } from '../../components/admin/CancelOrderDialog';
import { fullName } from '../../components/admin/fullName';
import { RefundTicketsDialog } from '../../components/admin/RefundTicketsDialog';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1.4fr 1fr; align-items: start; }
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  section + section { margin-top: ${({ theme }) => theme.space.lg}; }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr);
  gap: 4px ${({ theme }) => theme.space.md};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
`;

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  li { border-bottom: 1px solid ${({ theme }) => theme.colors.border}; padding-bottom: ${({ theme }) => theme.space.sm}; }
  .line { display: flex; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; font-weight: 600; }
  .numbers { color: ${({ theme }) => theme.colors.textMuted}; font-size: ${({ theme }) => theme.fontSizes.sm}; overflow-wrap: anywhere; }
`;

/** The order's status, times, customer, amounts and payment references. */
function OrderFacts({ order }: { order: AdminOrderDetail }) {
  return (
    <Facts>
      <dt>Status</dt>
      <dd>
        <StatusBadge $status={order.status} data-testid="admin-order-status">
          {order.status}
        </StatusBadge>
      </dd>
      <dt>Placed</dt>
      <dd>{formatDateTime(order.createdAt)}</dd>
      {order.paidAt && (
        <>
          <dt>Paid</dt>
          <dd>{formatDateTime(order.paidAt)}</dd>
        </>
      )}
      {order.cancelledAt && (
        <>
          <dt>Cancelled</dt>
          <dd>{formatDateTime(order.cancelledAt)}</dd>
        </>
      )}
      {(order.cardRefunds ?? []).map((r) => (
        <Fragment key={r.createdAt}>
          <dt>Card refund</dt>
          <dd data-testid="card-refund">
            {formatPounds(r.amount)}{' '}
            {r.sentAt ? `sent ${formatDateTime(r.sentAt)}` : 'owed: the payment reconciler retries it'}
          </dd>
        </Fragment>
      ))}
      {order.cancellationReason && (
        <>
          <dt>Reason</dt>
          <dd data-testid="cancellation-reason">{order.cancellationReason}</dd>
        </>
      )}
      <dt>Customer</dt>
      <dd>
        {order.postalEntrant
          ? `Postal entry: ${order.postalEntrant.name}, ${order.postalEntrant.email}${order.user ? ` (account ${order.user.username})` : ''}`
          : order.user
            ? `${order.user.username}${fullName(order.user) ? ` (${fullName(order.user)})` : ''}, ${order.user.email}`
            : 'Deleted user'}
      </dd>
      <dt>Subtotal</dt>
      <dd>{formatPounds(order.subtotal)}</dd>
      {order.creditApplied > 0 && (
        <>
          <dt>Site credit</dt>
          <dd>−{formatPounds(order.creditApplied)}</dd>
        </>
      )}
      <dt>Paid by card</dt>
      <dd>{formatPounds(order.total)}</dd>
      <dt>Method</dt>
      <dd>{order.paymentMethod}</dd>
      <dt>Payment reference</dt>
      <dd data-testid="payment-reference">{order.paymentReference ?? 'None'}</dd>
      {order.refundReference && (
        <>
          <dt>Refund reference</dt>
          <dd>{order.refundReference}</dd>
        </>
      )}
      {order.refund && (
        <>
          <dt>Refund</dt>
          <dd>
            {formatPounds(order.refund.amount)}
            {order.refund.refundedAt ? '' : ' (being sent)'}
          </dd>
        </>
      )}
    </Facts>
  );
}

/** /admin/orders/:id: items, numbers, payment reference, audit trail, and Cancel. */
export default function AdminOrderDetailPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const detail = useAdminRoute(ADMIN_ORDER_ROUTES.adminOrder, { params: { id: id ?? '' } });
  const [confirming, setConfirming] = useState(false);
  const [refunding, setRefunding] = useState<AdminOrderDetail['items'][number]>();
  const order = detail.data;
  useEffect(() => {
    document.title = `${order?.orderNumber ?? 'Order'} | ${siteName}`;
  }, [order?.orderNumber, siteName]);

  return (
    <PageContainer>
      <AdminHeader title={order ? `Order ${order.orderNumber}` : 'Order'} back={null}>
        <Link href="/admin/orders" asChild>
          <ButtonLink $variant="ghost">Back to Orders</ButtonLink>
        </Link>
        <Link href="/admin" asChild>
          <ButtonLink $variant="ghost">Back to Admin</ButtonLink>
        </Link>
      </AdminHeader>
      {!order ? (
        detail.error ? (
          <CenteredMessage role="alert">
            <h2>
              {detail.error && (detail.error as { status?: number }).status === 404
                ? 'Order not found'
                : 'Error Loading Orders'}
            </h2>
            <p>{messageOf(detail.error, 'There was an error fetching the orders data.')}</p>
          </CenteredMessage>
        ) : (
          <Spinner label="Loading order" />
        )
      ) : (
        <Grid>
          <div>
            <Card aria-labelledby="items-title">
              <h2 id="items-title">Items</h2>
              <Items>
                {order.items.map((i) => (
                  <li key={i.id} data-testid="admin-order-item">
                    <div className="line">
                      <span>
                        {i.title} × {i.quantity}
                      </span>
                      <span>{formatPounds(i.lineTotal)}</span>
                    </div>
                    <div className="numbers">
                      {formatPounds(i.ticketPrice)} each
                      {i.saved ? ` (multi-buy, ${formatPounds(i.saved)} saved)` : ''} · Numbers:{' '}
                      {i.numbers.length ? i.numbers.join(', ') : 'none'}
                    </div>
                    {order.status === 'completed' && i.numbers.length > 0 && (
                      <Button type="button" $variant="ghost" onClick={() => setRefunding(i)}>
                        Refund Tickets
                      </Button>
                    )}
                  </li>
                ))}
              </Items>
            </Card>
            <Card aria-labelledby="audit-title">
              <h2 id="audit-title">Audit trail</h2>
              <AuditTrail entries={order.auditLog} />
            </Card>
          </div>
          <Card aria-labelledby="summary-title">
            <h2 id="summary-title">Summary</h2>
            <OrderFacts order={order} />
            {order.status !== 'cancelled' && (
              <p>
                <Button type="button" $variant="danger" onClick={() => setConfirming(true)}>
                  Cancel Order
                </Button>
              </p>
            )}
          </Card>
        </Grid>
      )}
      {order && (
        <RefundTicketsDialog
          order={order}
          item={refunding}
          onClose={() => setRefunding(undefined)}
          onDone={() => {
            setRefunding(undefined);
            detail.reload();
          }}
        />
      )}
      <CancelOrderDialog
        order={order}
        open={confirming}
        onClose={() => setConfirming(false)}
        onCancelled={() => {
          setConfirming(false);
          detail.reload();
        }}
      />
    </PageContainer>
  );
}
