import { type ReactNode, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Link, useParams, useSearch } from 'wouter';
import type { OrderView } from '../../../contract/checkout';
import { formatPounds } from '../../../contract/money';
import { apiSend, messageOf } from '../../api/client';
import { useApiData } from '../../api/useApiData';
import { LoginDialog } from '../../components/auth/LoginDialog';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { formatLongDate } from '../../format';
import { serverNow } from '../../live/clock';
import { useAuth } from '../../stores/auth';
import { useCart } from '../../stores/cart';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The draw date shown on the confirmation: 7 days from today (spec section 9). */
const DRAW_DATE_DAYS = 7;

const Wrap = styled(Card)`
  max-width: 680px;
  margin: 0 auto;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h1 { margin: 0; color: ${({ theme }) => theme.colors.success}; text-align: center; }
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
`;

const Tick = styled.div`
  width: 64px;
  height: 64px;
  margin: 0 auto;
  border-radius: 50%;
  display: grid;
  place-items: center;
  font-size: 32px;
  color: ${({ theme }) => theme.colors.textInverse};
  background: ${({ theme }) => theme.colors.success};
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
`;

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  li { border: 1px solid ${({ theme }) => theme.colors.border}; border-radius: ${({ theme }) => theme.radii.md}; padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md}; }
  .line { display: flex; justify-content: space-between; gap: ${({ theme }) => theme.space.md}; font-weight: 600; }
  .numbers { color: ${({ theme }) => theme.colors.textMuted}; font-size: ${({ theme }) => theme.fontSizes.sm}; }
`;

const Notice = styled.p`
  border-left: 4px solid ${({ theme }) => theme.colors.info};
  background: ${({ theme }) => theme.colors.muted};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  justify-content: center;
  a { flex: 1 1 180px; }
`;

const ticketsLabel = (n: number) => `${n} ${n === 1 ? 'ticket' : 'tickets'}`;

function Confirmed({ order }: { order: OrderView }) {
  const drawDate = new Date(serverNow() + DRAW_DATE_DAYS * DAY_MS).toISOString();
  return (
    <Wrap aria-labelledby="confirmed-title">
      <Tick aria-hidden="true">✓</Tick>
      <h1 id="confirmed-title">Order Confirmed!</h1>
      <Facts>
        <dt>Order number</dt>
        <dd data-testid="order-number">{order.orderNumber}</dd>
        <dt>Date</dt>
        <dd>{formatLongDate(order.paidAt ?? order.createdAt)}</dd>
        {order.creditApplied > 0 && (
          <>
            <dt>Site credit used</dt>
            <dd>{formatPounds(order.creditApplied)}</dd>
          </>
        )}
        <dt>Total</dt>
        <dd data-testid="order-total">{formatPounds(order.total)}</dd>
        <dt>Payment method</dt>
        <dd>{order.paymentMethod}</dd>
        <dt>Draw date</dt>
        <dd>{formatLongDate(drawDate)}</dd>
      </Facts>
      {order.notice && <Notice role="note">{order.notice}</Notice>}
      <h2>Your Tickets</h2>
      <Items>
        {order.items.map((item) => (
          <li key={item.id} data-testid="order-item">
            <div className="line">
              <span>{item.title}</span>
              <span>{ticketsLabel(item.quantity)}</span>
            </div>
            <div className="numbers" data-testid="order-numbers">
              Ticket numbers: {item.numbers.join(', ')}
            </div>
          </li>
        ))}
      </Items>
      <p>A confirmation email has been sent to your email address.</p>
      <Actions>
        <Link href="/my-competitions" asChild>
          <ButtonLink>View My Entries</ButtonLink>
        </Link>
        <Link href="/competitions" asChild>
          <ButtonLink $variant="ghost">Continue Shopping</ButtonLink>
        </Link>
      </Actions>
    </Wrap>
  );
}

/** The order is not paid (yet): say why, and offer the way back. */
function NotCompleted({ order, message }: { order: OrderView; message: string | undefined }) {
  return (
    <CenteredMessage role="alert">
      <h1>Order Not Completed</h1>
      <p>{message ?? order.notice ?? 'Payment has not been received for this order.'}</p>
      <p>Order number {order.orderNumber}</p>
      <Link href="/cart" asChild>
        <ButtonLink>Return to Cart</ButtonLink>
      </Link>
    </CenteredMessage>
  );
}

function SignedOut() {
  const [open, setOpen] = useState(false);
  return (
    <CenteredMessage>
      <h1>Authentication Required</h1>
      <p>Please log in to view your order.</p>
      <Button type="button" onClick={() => setOpen(true)}>
        Log In
      </Button>
      <Link href="/" asChild>
        <ButtonLink $variant="ghost">Return to Homepage</ButtonLink>
      </Link>
      <LoginDialog
        open={open}
        onClose={() => setOpen(false)}
        description="Please log in to view your order."
      />
    </CenteredMessage>
  );
}

const NotFound = () => (
  <CenteredMessage>
    <h1>Order Not Found</h1>
    <p>We couldn't find this order on your account.</p>
    <Link href="/my-competitions" asChild>
      <ButtonLink>View My Entries</ButtonLink>
    </Link>
  </CenteredMessage>
);

/**
 * An order's confirmation (docs/product.md#orders). A pending order (the return
 * from a Stripe redirect, or a webhook still on its way) is confirmed once with PATCH
 * /api/orders/:id; the server checks with the payment provider before it sells anything.
 */
export function OrderConfirmation({ orderId }: { orderId: string }) {
  const siteName = useSiteName();
  const search = useSearch();
  const user = useAuth((s) => s.user);
  const authStatus = useAuth((s) => s.status);
  const loaded = useApiData<OrderView>(user ? `/api/orders/${encodeURIComponent(orderId)}` : null);
  const [confirmed, setConfirmed] = useState<OrderView>();
  const [confirmError, setConfirmError] = useState<string>();
  const asked = useRef(false);
  const order = confirmed ?? loaded.data;

  useEffect(() => {
    document.title = `Order Confirmation | ${siteName}`;
  }, [siteName]);

  useEffect(() => {
    const o = loaded.data;
    if (!o || asked.current || (o.status !== 'pending' && o.status !== 'failed')) return;
    asked.current = true;
    apiSend<OrderView>('PATCH', `/api/orders/${o.id}`, { status: 'completed' }).then(
      (paid) => {
        setConfirmed(paid);
        // Back from the card provider's own page (3-D Secure and the like).
        if (new URLSearchParams(search).get('redirect_status') === 'succeeded') {
          toast({
            title: 'Payment successful!',
            description: 'Thank you for your purchase.',
            variant: 'success',
          });
        }
      },
      (err) => setConfirmError(messageOf(err, 'Payment has not been received for this order.')),
    );
  }, [loaded.data, search]);

  // The paid order's items left the cart on the server: show that here too.
  useEffect(() => {
    if (order?.status === 'completed') void useCart.getState().load();
  }, [order?.status]);

  let content: ReactNode;
  if (!user) {
    content = authStatus === 'loading' ? <Spinner label="Checking your account" /> : <SignedOut />;
  } else if (loaded.error) {
    const status = (loaded.error as { status?: number }).status;
    content =
      status === 404 || status === 400 ? (
        <NotFound />
      ) : (
        <CenteredMessage role="alert">
          <h1>Something went wrong</h1>
          <p>{loaded.error.message}</p>
          <Button type="button" onClick={loaded.reload}>
            Retry
          </Button>
        </CenteredMessage>
      );
  } else if (!order) {
    content = <Spinner label="Loading your order" />;
  } else if (order.status === 'completed') {
    content = <Confirmed order={order} />;
  } else if ((order.status === 'pending' || order.status === 'failed') && !confirmError) {
    content = <Spinner label="Confirming your payment" />;
  } else {
    content = <NotCompleted order={order} message={confirmError} />;
  }
  return <PageContainer>{content}</PageContainer>;
}

/** /confirmation/:orderId and /payment-success/:orderId. */
export default function OrderConfirmationPage() {
  const { orderId } = useParams<{ orderId: string }>();
  return <OrderConfirmation key={orderId} orderId={orderId ?? ''} />;
}
