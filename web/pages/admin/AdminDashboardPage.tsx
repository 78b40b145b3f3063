import { formatDistanceToNowStrict } from 'date-fns';
import { lazy, Suspense, useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { formatPence, formatPounds } from '../../../contract/money';
import type { AdminLiveEvent } from '../../../contract/salesStats';
import { AdminHeader, Muted, StatusBadge } from '../../components/admin/AdminUi';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { type FeedEntry, useAdminFeed, useAdminLive } from '../../live/adminFeed';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

// uPlot and the charts load only with the dashboard, never with the customer pages.
const SalesCharts = lazy(() => import('../../components/admin/charts/SalesCharts'));

export const ADMIN_SECTIONS = [
  { href: '/admin/users', label: 'Manage Users', note: 'Roles and accounts' },
  { href: '/admin/competitions', label: 'Manage Competitions', note: 'Create, edit, end and export' },
  { href: '/admin/orders', label: 'Manage Orders', note: 'Details, audit trail, cancel' },
  { href: '/admin/ticket-lookup', label: 'Ticket Lookup', note: 'Who holds a number' },
  { href: '/admin/site-settings', label: 'Site Settings', note: 'Hero image' },
  { href: '/admin/promos', label: 'Site Credit Promos', note: 'Welcome credit and resets' },
  { href: '/admin/emails', label: 'E-mails sent', note: 'Who was sent what, and whether it went' },
  {
    href: '/admin/campaigns',
    label: 'Campaigns',
    note: 'Marketing e-mails: sent, to how many, unsubscribes',
  },
  { href: '/admin/complaints', label: 'Complaints', note: 'Reply by e-mail before the due date' },
  { href: '/admin/harm-report', label: 'Harm Report', note: 'High spenders, limits and breaks' },
] as const;

const Stats = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  grid-template-columns: repeat(2, minmax(0, 1fr));
  ${media.md} { grid-template-columns: repeat(4, minmax(0, 1fr)); }
  margin-bottom: ${({ theme }) => theme.space.xl};
`;

const Stat = styled(Card)`
  padding: ${({ theme }) => theme.space.md};
  text-align: center;
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; }
  p {
    margin: 4px 0 0;
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: ${({ theme }) => theme.fontSizes.xxl};
    font-weight: 700;
    color: ${({ theme }) => theme.colors.brand};
    font-variant-numeric: tabular-nums;
  }
`;

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  ${media.lg} { grid-template-columns: 1fr 1.2fr; align-items: start; }
  h2 { color: ${({ theme }) => theme.colors.brand}; margin: 0 0 ${({ theme }) => theme.space.md}; }
`;

const Sections = styled.nav`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  grid-template-columns: repeat(auto-fill, minmax(200px, 1fr));
  a {
    display: grid;
    gap: 2px;
    min-height: 64px;
    padding: ${({ theme }) => theme.space.md};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.textInverse};
    text-decoration: none;
    font-weight: 700;
    &:hover { background: ${({ theme }) => theme.colors.brandLight}; }
    small { font-weight: 400; opacity: 0.8; }
  }
`;

const Feed = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
`;

const FeedItem = styled.li<{ $fresh: boolean }>`
  display: grid;
  grid-template-columns: minmax(0, 1fr) auto;
  gap: 2px ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $fresh }) => ($fresh ? theme.colors.successBg : theme.colors.surface)};
  box-shadow: ${({ theme }) => theme.shadows.card};
  transition: background 2s ease;
  a { font-weight: 700; color: ${({ theme }) => theme.colors.brand}; }
  .amount { font-weight: 700; text-align: right; font-variant-numeric: tabular-nums; }
  .meta { grid-column: 1 / -1; font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; overflow-wrap: anywhere; }
`;

const CHANGE_TEXT: Record<FeedEntry['change'], string> = {
  listed: '',
  created: 'New order',
  paid: 'Paid',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

function FeedLine({ entry, now }: { entry: FeedEntry; now: number }) {
  const { order } = entry;
  const titles = [...new Set(order.items.map((i) => i.title))].join(', ');
  const who = order.user?.username ?? 'Guest';
  const fresh = entry.receivedAt > 0 && now - entry.receivedAt < 5000;
  return (
    <FeedItem $fresh={fresh} data-testid="feed-order" data-order-number={order.orderNumber}>
      <span>
        <Link href={`/admin/orders/${order.id}`}>{order.orderNumber}</Link>{' '}
        <StatusBadge $status={order.status}>{order.status}</StatusBadge>
      </span>
      <span className="amount" data-testid="feed-amount">
        {formatPounds(order.subtotal)}
      </span>
      <span className="meta">
        {titles || 'No items'} · {who} ·{' '}
        {formatDistanceToNowStrict(new Date(order.createdAt), { addSuffix: true })}
        {CHANGE_TEXT[entry.change] && ` · ${CHANGE_TEXT[entry.change]}`}
      </span>
    </FeedItem>
  );
}

const SectionTitle = styled.h2`
  color: ${({ theme }) => theme.colors.brand};
  margin: 0 0 ${({ theme }) => theme.space.md};
`;

/** The period a figure covers, under it (issue 39 §10: every figure says what it counts). */
const Period = styled.small`
  display: block;
  margin-top: 2px;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.xs};
`;

/** A tile that follows `admin:live`; a dash until the first push arrives. */
function LiveStat({
  label,
  testId,
  value,
  period,
  format = (n: number) => n.toLocaleString('en-GB'),
}: {
  label: string;
  testId: string;
  value: number | undefined;
  period: string;
  format?: (n: number) => string;
}) {
  return (
    <Stat>
      <h2>{label}</h2>
      <p data-testid={testId}>{value === undefined ? '–' : format(value)}</p>
      <Period>{period}</Period>
    </Stat>
  );
}

function useNow() {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** The live tiles: sockets, numbers held, and payments and revenue in the last hour. */
function LiveTiles({ figures }: { figures: AdminLiveEvent | null | undefined }) {
  return (
    <section aria-labelledby="live-title">
      <h2 id="live-title" className="visually-hidden">
        Live
      </h2>
      <Stats>
        <LiveStat
          label="Sockets Connected"
          testId="live-sockets"
          value={figures?.socketsConnected}
          period="Right now, this server"
        />
        <LiveStat label="Numbers Held Now" testId="live-held" value={figures?.heldNow} period="Right now" />
        <LiveStat
          label="Payments (Last Hour)"
          testId="live-payments"
          value={figures?.paymentsLastHour}
          period="The last 60 minutes"
        />
        <LiveStat
          label="Revenue (Last Hour)"
          testId="live-revenue"
          value={figures?.revenueLastHourPence}
          period="The last 60 minutes"
          format={formatPence}
        />
      </Stats>
    </section>
  );
}

/** /admin: counts that follow `admin:stats`, the six sections, and orders as they arrive. */
export default function AdminDashboardPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Admin Dashboard | ${siteName}`;
  }, [siteName]);
  useAdminLive();
  const loaded = useAdminRoute(ADMIN_ORDER_ROUTES.dashboard, {});
  const recent = useAdminRoute(ADMIN_ORDER_ROUTES.adminOrders, { query: { pageSize: '10' } });
  const live = useAdminFeed((s) => s.stats);
  const liveFigures = useAdminFeed((s) => s.live);
  const entries = useAdminFeed((s) => s.entries);
  // Re-render each second so "just now" highlights fade and relative times move on.
  const now = useNow();

  // The loaded counts become the baseline; every later push replaces them.
  useEffect(() => {
    if (loaded.data) useAdminFeed.setState({ stats: loaded.data });
  }, [loaded.data]);
  useEffect(() => {
    if (recent.data) useAdminFeed.getState().seed(recent.data.orders);
  }, [recent.data]);
  // The live tiles start from one read; every later `admin:live` push replaces it.
  const liveLoaded = useAdminRoute(ADMIN_ORDER_ROUTES.liveStats, {});
  useEffect(() => {
    if (liveLoaded.data)
      useAdminFeed.setState((s) =>
        s.live && s.live.at >= liveLoaded.data!.at ? {} : { live: liveLoaded.data },
      );
  }, [liveLoaded.data]);

  const stats = live ?? loaded.data;
  return (
    <PageContainer>
      <AdminHeader title="Admin Dashboard" back={{ href: '/', label: 'Back to Site' }} />
      {loaded.error && !stats ? (
        <CenteredMessage role="alert">
          <h2>Error loading dashboard data</h2>
          <p>{loaded.error.message}</p>
          <Button type="button" onClick={loaded.reload}>
            Retry
          </Button>
        </CenteredMessage>
      ) : !stats ? (
        <Spinner label="Loading dashboard" />
      ) : (
        <Stats>
          <Stat>
            <h2>Users</h2>
            <p data-testid="user-count">{stats.userCount.toLocaleString('en-GB')}</p>
            <Period>All time</Period>
          </Stat>
          <Stat>
            <h2>Competitions</h2>
            <p data-testid="competition-count">{stats.competitionCount.toLocaleString('en-GB')}</p>
            <Period>All time</Period>
          </Stat>
          <Stat>
            <h2>Orders</h2>
            <p data-testid="order-count">{stats.orderCount.toLocaleString('en-GB')}</p>
            <Period>All time</Period>
          </Stat>
          <Stat title="Captured payments settled by the reconciler after a crash or a lost webhook">
            <h2>Reconciled Payments</h2>
            <p data-testid="reconciled-count">{stats.reconciledPaymentCount.toLocaleString('en-GB')}</p>
            <Period>All time</Period>
          </Stat>
        </Stats>
      )}
      <LiveTiles figures={liveFigures} />
      <section aria-labelledby="sales-title">
        <SectionTitle id="sales-title">Sales</SectionTitle>
        <Suspense fallback={<Spinner label="Loading charts" />}>
          <SalesCharts />
        </Suspense>
      </section>
      <Layout>
        <section aria-labelledby="sections-title">
          <h2 id="sections-title">Manage</h2>
          <Sections aria-label="Admin sections">
            {ADMIN_SECTIONS.map((s) => (
              <Link key={s.href} href={s.href}>
                {s.label}
                <small>{s.note}</small>
              </Link>
            ))}
          </Sections>
        </section>
        <section aria-labelledby="feed-title">
          <h2 id="feed-title">Live Orders</h2>
          {entries.length === 0 ? (
            <Muted>
              {recent.loading ? 'Loading recent orders…' : 'No orders yet. New ones appear here live.'}
            </Muted>
          ) : (
            <Feed aria-label="Live orders" aria-live="polite">
              {entries.map((e) => (
                <FeedLine key={e.order.id} entry={e} now={now} />
              ))}
            </Feed>
          )}
          <p>
            <Link href="/admin/orders" asChild>
              <ButtonLink $variant="ghost">All orders</ButtonLink>
            </Link>
          </p>
        </section>
      </Layout>
    </PageContainer>
  );
}
