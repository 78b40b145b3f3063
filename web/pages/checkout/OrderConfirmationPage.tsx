import { type ReactNode, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { Link, useParams, useSearch } from 'wouter';
import type { CLAIM_ROUTES } from '../../../contract/apiClaims';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import type { OrderView } from '../../../contract/checkout';
import type { InstantWinPrize } from '../../../contract/instantWins';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPence, formatPounds, poundsToPence } from '../../../contract/money';
import { InstantWonEventSchema, OrderUpdatedEventSchema } from '../../../contract/realtime';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { LoginDialog } from '../../components/auth/LoginDialog';
import { LiveDrawStatus } from '../../components/orders/LiveDrawStatus';
import { paymentNotCompleted, refundSummary, unpaidReason } from '../../components/orders/orderStatus';
import { PushPrompt } from '../../components/orders/PushPrompt';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { getSocket } from '../../live/socket';
import { useAuth } from '../../stores/auth';
import { useCart } from '../../stores/cart';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';

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

const Won = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 2px solid ${({ theme }) => theme.colors.success};
  background: ${({ theme }) => theme.colors.successBg};
  h2 { color: ${({ theme }) => theme.colors.success}; }
  ul { margin: 0; padding-left: ${({ theme }) => theme.space.lg}; }
`;

/** What an instant prize gives, in words: credit is already in the account. */
const prizeLine = (w: InstantWinPrize) =>
  `${w.title} with ticket #${w.number}${
    w.kind === 'credit' && w.amountPence ? ` (${formatPence(w.amountPence)} added to your site credit)` : ''
  }${w.description ? `: ${w.description}` : ''}`;

/** 'You won instantly!': the instant prizes this order's numbers won; a prize links its claim. */
function InstantWins({ wins }: { wins: readonly InstantWinPrize[] }) {
  const prizes = wins.some((w) => w.kind === 'prize');
  const claims = useRoute<typeof CLAIM_ROUTES.myClaims>(
    { method: 'GET', path: '/api/claims' },
    prizes ? {} : null,
  );
  return (
    <Won aria-labelledby="instant-won-title" data-testid="instant-won">
      <h2 id="instant-won-title">You won instantly!</h2>
      <ul>
        {wins.map((w) => {
          const claim = claims.data?.find((c) => c.instantWinId === w.id);
          return (
            <li key={w.id}>
              {prizeLine(w)}
              {w.kind === 'prize' && (
                <span data-testid="instant-claim">
                  {' '}
                  We need your delivery address before we can send it:{' '}
                  {claim ? (
                    <Link href={`/claims/${claim.id}`}>
                      claim your prize by {formatLongDate(claim.deadline)}
                    </Link>
                  ) : (
                    <Link href="/my-competitions">claim it from My Entries within 14 days</Link>
                  )}
                  .
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </Won>
  );
}

const ticketsLabel = (n: number) => `${n} ${n === 1 ? 'ticket' : 'tickets'}`;

/** The competitions' own end dates: one date when every line shares it, else one per line. */
function commonDrawDate(order: OrderView): string | null {
  const dates = new Set(order.items.map((item) => item.drawDate));
  const [only] = dates;
  return dates.size === 1 && only ? only : null;
}

function Confirmed({ order, liveWins }: { order: OrderView; liveWins: readonly InstantWinPrize[] }) {
  const drawDate = commonDrawDate(order);
  // One competition: its draw, followed live (sold out, drawing, the result), in the facts.
  const competitions = [...new Set(order.items.map((i) => i.competitionId))];
  const single = competitions.length === 1 ? order.items[0] : undefined;
  const known = order.instantWins ?? [];
  const saved = order.items.reduce((sum, i) => sum + poundsToPence(i.saved ?? 0), 0);
  const wins = [...known, ...liveWins.filter((w) => !known.some((k) => k.id === w.id))];
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
        {saved > 0 && (
          <>
            <dt>Multi-buy saving</dt>
            <dd data-testid="order-saved">{formatPence(saved)}</dd>
          </>
        )}
        <dt>Total</dt>
        <dd data-testid="order-total">{formatPounds(order.total)}</dd>
        <dt>Payment method</dt>
        <dd>{order.paymentMethod}</dd>
        {single ? (
          <>
            <dt>Draw</dt>
            <dd data-testid="draw-date">
              <LiveDrawStatus
                competitionId={single.competitionId}
                numbers={order.items.flatMap((i) => i.numbers)}
                drawDate={drawDate}
              />
            </dd>
          </>
        ) : (
          drawDate && (
            <>
              <dt>Draw date</dt>
              <dd data-testid="draw-date">{formatLongDate(drawDate)}</dd>
            </>
          )
        )}
      </Facts>
      {order.notice && <Notice role="note">{order.notice}</Notice>}
      {wins.length > 0 && <InstantWins wins={wins} />}
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
            {!single && (
              <div className="numbers">
                <LiveDrawStatus
                  competitionId={item.competitionId}
                  numbers={item.numbers}
                  drawDate={drawDate ? null : item.drawDate}
                  prefix="Draw: "
                />
              </div>
            )}
          </li>
        ))}
      </Items>
      <p>A confirmation email has been sent to your email address.</p>
      {/* Asked only now, after the purchase (never on page load): docs/product.md#web-push. */}
      <PushPrompt />
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

const NOT_COMPLETED_TITLE: Record<'failed' | 'cancelled', string> = {
  failed: 'Payment Failed',
  cancelled: 'Order Cancelled',
};

/** The title of an order that did not complete: a checkout that took no money was not 'cancelled'. */
function notCompletedTitle(order: OrderView): string {
  if (order.status === 'cancelled' && paymentNotCompleted(order)) return 'Payment not completed';
  return order.status === 'failed' || order.status === 'cancelled'
    ? NOT_COMPLETED_TITLE[order.status]
    : 'Order Not Completed';
}

/** A failed, cancelled or refunded order: say what happened to the money and why. */
function NotCompleted({ order, fallback }: { order: OrderView; fallback: string | undefined }) {
  const refund = refundSummary(order);
  const title = notCompletedTitle(order);
  // A refund says how much went back and why; otherwise the card's error or the server's answer.
  const reason = refund ?? order.notice ?? fallback ?? unpaidReason(order);
  return (
    <CenteredMessage role="alert">
      <h1>{order.refund ? 'Order Refunded' : title}</h1>
      <p data-testid="order-reason">{reason}</p>
      <p>Order number {order.orderNumber}</p>
      <Link href="/cart" asChild>
        <ButtonLink>Return to Cart</ButtonLink>
      </Link>
    </CenteredMessage>
  );
}

/** Paid for, but not yet confirmed by the payment provider: this page updates by itself. */
function AwaitingPayment({ order }: { order: OrderView }) {
  return (
    <CenteredMessage>
      <Spinner label="Waiting for your payment to be confirmed" />
      <h1>Waiting for your payment</h1>
      <p>
        We're waiting for the payment provider to confirm order {order.orderNumber}. This page updates by
        itself as soon as it does.
      </p>
      <Link href="/cart" asChild>
        <ButtonLink $variant="ghost">Return to Cart</ButtonLink>
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
 * An order's confirmation (docs/product.md#orders), read from the server: paid, waiting, failed or
 * refunded. A pending order (the return from a Stripe redirect, or a webhook still on its way) is
 * confirmed once with PATCH /api/orders/:id, which checks with the payment provider before it sells
 * anything; after that the page follows the order live (`order:updated` on the customer's room).
 */
export function OrderConfirmation({ orderId }: { orderId: string }) {
  const siteName = useSiteName();
  const search = useSearch();
  const user = useAuth((s) => s.user);
  const authStatus = useAuth((s) => s.status);
  const loaded = useRoute<typeof ORDER_ROUTES.order>(
    { method: 'GET', path: '/api/orders/:id' },
    user ? { params: { id: orderId } } : null,
  );
  const [latest, setLatest] = useState<OrderView>();
  // instant:won for this order's numbers, in case it comes before the order's own update.
  const [liveWins, setLiveWins] = useState<InstantWinPrize[]>([]);
  const [confirmError, setConfirmError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const asked = useRef(false);
  const order = latest ?? loaded.data;

  useEffect(() => {
    document.title = `Order Confirmation | ${siteName}`;
  }, [siteName]);

  // The order as it changes (paid, failed, refunded), and read again on every (re)connect, in
  // case a change went by while the socket was down or before it joined the customer's room.
  const { reload } = loaded;
  useEffect(() => {
    const socket = getSocket();
    const onUpdate = (event: unknown) => {
      if (v.is(OrderUpdatedEventSchema, event) && String(event.order.id) === orderId) setLatest(event.order);
    };
    const onWon = (event: unknown) => {
      if (v.is(InstantWonEventSchema, event)) setLiveWins((wins) => [...wins, event.prize]);
    };
    socket.on('order:updated', onUpdate);
    socket.on('instant:won', onWon);
    socket.on('connect', reload);
    return () => {
      socket.off('order:updated', onUpdate);
      socket.off('instant:won', onWon);
      socket.off('connect', reload);
    };
  }, [orderId, reload]);
  // A fresh read from the server replaces whatever was pushed before it.
  useEffect(() => {
    if (loaded.data) setLatest(undefined);
  }, [loaded.data]);

  useEffect(() => {
    const o = loaded.data;
    if (!o || asked.current || (o.status !== 'pending' && o.status !== 'failed')) return;
    asked.current = true;
    setChecking(true);
    call<typeof ORDER_ROUTES.completeOrder>(
      { method: 'PATCH', path: '/api/orders/:id' },
      { params: { id: o.id }, body: { status: 'completed' } },
    )
      .then(
        (paid) => {
          setLatest(paid);
          // Back from the card provider's own page (3-D Secure and the like).
          if (new URLSearchParams(search).get('redirect_status') === 'succeeded') {
            toast({
              title: 'Payment successful!',
              description: 'Thank you for your purchase.',
              variant: 'success',
            });
          }
        },
        // Still pending: the live update settles it. Failed: the page says why.
        (err) => setConfirmError(messageOf(err, 'Payment has not been received for this order.')),
      )
      .finally(() => setChecking(false));
  }, [loaded.data, search]);

  // The paid order's items left the cart on the server: show that here too.
  useEffect(() => {
    if (order?.status === 'completed') void useCart.getState().load();
  }, [order?.status]);

  let content: ReactNode;
  if (!user) {
    content = authStatus === 'loading' ? <Spinner label="Checking your account" /> : <SignedOut />;
  } else if (loaded.error && !latest) {
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
    content = (
      <Confirmed
        order={order}
        liveWins={liveWins.filter((w) =>
          order.items.some((i) => i.competitionId === w.competitionId && i.numbers.includes(w.number)),
        )}
      />
    );
  } else if (order.status === 'pending') {
    content = <AwaitingPayment order={order} />;
  } else if (order.status === 'failed' && checking) {
    content = <Spinner label="Confirming your payment" />;
  } else {
    content = <NotCompleted order={order} fallback={confirmError} />;
  }
  return <PageContainer>{content}</PageContainer>;
}

/** /confirmation/:orderId and /payment-success/:orderId. */
export default function OrderConfirmationPage() {
  const { orderId } = useParams<{ orderId: string }>();
  return <OrderConfirmation key={orderId} orderId={orderId ?? ''} />;
}
