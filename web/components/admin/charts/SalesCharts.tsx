import { useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import { ADMIN_ORDER_ROUTES } from '../../../../contract/apiAdminOrders';
import { formatShortDate, londonMidnight, londonToday, nextDay } from '../../../../contract/londonTime';
import { formatPence } from '../../../../contract/money';
import type { SalesBucket } from '../../../../contract/salesStats';
import { useAdminFeed } from '../../../live/adminFeed';
import { Card } from '../../ui/Page';
import { Control, Muted, Toolbar } from '../AdminUi';
import { useAdminRoute } from '../useAdminData';
import { TimeSeriesChart } from './TimeSeriesChart';

// The dashboard's sales charts, a chunk of its own (uPlot) loaded only by the dashboard.

const DAY_MS = 86_400_000;

const Panel = styled(Card)`
  padding: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.xl};
  h3 { margin: ${({ theme }) => theme.space.md} 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; }
  .uplot { font-family: ${({ theme }) => theme.fonts.body}; }
`;

const Totals = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-variant-numeric: tabular-nums;
`;

const Bars = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  li { display: grid; gap: 2px; }
  .label { display: flex; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  .label span:last-child { font-variant-numeric: tabular-nums; white-space: nowrap; }
  .track { height: 10px; border-radius: 5px; background: ${({ theme }) => theme.colors.muted}; overflow: hidden; }
  .bar { height: 100%; background: ${({ theme }) => theme.colors.brand}; }
`;

/** The chosen range as the API's instants: London midnight of `from` to that after `to`. */
const queryOf = (from: string, to: string, bucket: SalesBucket) => ({
  from: new Date(londonMidnight(from)).toISOString(),
  to: new Date(londonMidnight(nextDay(to))).toISOString(),
  bucket,
});

const validDate = (date: string) => /^\d{4}-\d{2}-\d{2}$/.test(date);

/** ', 22 Nov 2026 to 28 Nov 2026': the days the totals cover, in UK dates. */
const periodOf = (from: string, to: string) =>
  validDate(from) && validDate(to)
    ? `, ${formatShortDate(londonMidnight(from))} to ${formatShortDate(londonMidnight(to))}`
    : '';

export default function SalesCharts() {
  const today = londonToday();
  const [from, setFrom] = useState(() => londonToday(Date.now() - 6 * DAY_MS));
  const [to, setTo] = useState(today);
  const [bucket, setBucket] = useState<SalesBucket>('day');
  const query = validDate(from) && validDate(to) ? queryOf(from, to, bucket) : null;
  const loaded = useAdminRoute(ADMIN_ORDER_ROUTES.salesStats, query && { query });
  const { reload } = loaded;

  // A sale paid, cancelled or refunded (admin:order) reads the figures again while the range
  // reaches today; no polling.
  const salesChanges = useAdminFeed((s) => s.salesChanges);
  const live = to >= today;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new sales change is the trigger
  useEffect(() => {
    if (salesChanges > 0 && live) reload();
  }, [salesChanges]);

  const stats = loaded.data;
  const series = useMemo(
    () =>
      stats && {
        times: stats.series.map((b) => Date.parse(b.start) / 1000),
        tickets: stats.series.map((b) => b.tickets),
        revenuePence: stats.series.map((b) => b.revenuePence),
      },
    [stats],
  );
  const best = Math.max(1, ...(stats?.competitions.map((c) => c.revenuePence) ?? []));

  return (
    <Panel>
      <Toolbar>
        <Control>
          <label htmlFor="sales-from">From</label>
          <input
            id="sales-from"
            type="date"
            value={from}
            max={to}
            onChange={(e) => setFrom(e.target.value)}
          />
        </Control>
        <Control>
          <label htmlFor="sales-to">To</label>
          <input id="sales-to" type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} />
        </Control>
        <Control>
          <label htmlFor="sales-bucket">Group by</label>
          <select id="sales-bucket" value={bucket} onChange={(e) => setBucket(e.target.value as SalesBucket)}>
            <option value="day">Day</option>
            <option value="hour">Hour</option>
          </select>
        </Control>
      </Toolbar>
      {loaded.error ? (
        <Muted role="alert">{loaded.error.message}</Muted>
      ) : !stats || !series ? (
        <Muted>Loading sales…</Muted>
      ) : (
        <>
          <Totals data-testid="sales-totals">
            <strong>{stats.totals.tickets.toLocaleString('en-GB')}</strong> tickets sold ·{' '}
            <strong>{formatPence(stats.totals.revenuePence)}</strong> revenue ·{' '}
            {stats.totals.orders.toLocaleString('en-GB')} orders{periodOf(from, to)} (UK time)
          </Totals>
          <h3>Tickets Sold and Revenue</h3>
          <TimeSeriesChart
            series={series}
            bucket={stats.bucket}
            title={`Tickets sold and revenue per ${stats.bucket}`}
          />
          <h3>Sales per Competition</h3>
          {stats.competitions.length === 0 ? (
            <Muted>No sales in this range.</Muted>
          ) : (
            <Bars aria-label="Sales per competition">
              {stats.competitions.map((c) => (
                <li key={c.competitionId} data-testid="competition-sales">
                  <span className="label">
                    <span>{c.title}</span>
                    <span>
                      {c.tickets.toLocaleString('en-GB')} tickets · {formatPence(c.revenuePence)}
                    </span>
                  </span>
                  <span className="track" aria-hidden="true">
                    <span
                      className="bar"
                      style={{ display: 'block', width: `${(c.revenuePence / best) * 100}%` }}
                    />
                  </span>
                </li>
              ))}
            </Bars>
          )}
        </>
      )}
    </Panel>
  );
}
