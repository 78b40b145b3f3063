import type { Knex } from 'knex';
import { iso } from '../../contract/dates';
import { londonDayOf, londonMidnight, nextDay } from '../../contract/londonTime';
import type { AdminLiveEvent, SalesStats, SalesStatsQuery } from '../../contract/salesStats';

const HOUR_MS = 3_600_000;

interface Figures {
  tickets: number;
  revenuePence: number;
  orders: number;
}

const ZERO: Figures = { tickets: 0, revenuePence: 0, orders: 0 };

// Drivers may hand sums back as strings (MySQL DECIMAL) or null (no rows).
const figuresOf = (row: { tickets: unknown; revenuePence: unknown; orders: unknown }): Figures => ({
  tickets: Number(row.tickets ?? 0),
  revenuePence: Number(row.revenuePence ?? 0),
  orders: Number(row.orders ?? 0),
});

const add = (a: Figures, b: Figures): Figures => ({
  tickets: a.tickets + b.tickets,
  revenuePence: a.revenuePence + b.revenuePence,
  orders: a.orders + b.orders,
});

/** Order lines of completed orders paid in [from, to): what every sales figure counts. */
const paidLines = (db: Knex, from: number, to: number) =>
  db('orderItems as i')
    .join('orders as o', 'o.id', 'i.orderId')
    .where('o.status', 'completed')
    .where('o.paidAt', '>=', from)
    .where('o.paidAt', '<', to);

const FIGURES = (db: Knex) => [
  db.raw('sum(??) as ??', ['i.quantity', 'tickets']),
  // What was paid (bundles included), not quantity × ticket price.
  db.raw('sum(??) as ??', ['i.paidPence', 'revenuePence']),
  db.raw('count(distinct ??) as ??', ['o.id', 'orders']),
];

/**
 * Sales per bucket and per competition. SQL groups by UTC hour with integer arithmetic on the
 * stored epoch milliseconds (the same on SQLite and MariaDB, whatever either's time zone); UK
 * hours are UTC hours since the UK is always a whole number of hours from UTC, and UK days are
 * those hours added up here by their London calendar day (at most 24 rows a day).
 */
export async function salesStats(db: Knex, { from, to, bucket }: SalesStatsQuery): Promise<SalesStats> {
  // A literal, not a binding, so the select and the GROUP BY are the very same expression.
  const hourStart = db.raw(`?? - (?? % ${HOUR_MS})`, ['o.paidAt', 'o.paidAt']);
  const [hours, competitions] = await Promise.all([
    paidLines(db, from, to)
      .select({ hourStart }, ...FIGURES(db))
      .groupByRaw(hourStart.toQuery()) as Promise<
      Array<{ hourStart: unknown; tickets: unknown; revenuePence: unknown; orders: unknown }>
    >,
    paidLines(db, from, to)
      .join('competitions as c', 'c.id', 'i.competitionId')
      .select({ competitionId: 'c.id', title: 'c.title' }, ...FIGURES(db))
      .groupBy('c.id', 'c.title') as Promise<
      Array<{
        competitionId: number;
        title: string;
        tickets: unknown;
        revenuePence: unknown;
        orders: unknown;
      }>
    >,
  ]);

  const bucketOf = bucket === 'hour' ? (ms: number) => ms - (ms % HOUR_MS) : (ms: number) => londonDayOf(ms);
  const byBucket = new Map<number | string, Figures>();
  for (const row of hours) {
    const key = bucketOf(Number(row.hourStart));
    byBucket.set(key, add(byBucket.get(key) ?? ZERO, figuresOf(row)));
  }
  const series: SalesStats['series'] = [];
  if (bucket === 'hour') {
    for (let start = from - (from % HOUR_MS); start < to; start += HOUR_MS)
      series.push({ start: iso(start), ...(byBucket.get(start) ?? ZERO) });
  } else {
    const lastDay = londonDayOf(to - 1);
    for (let day = londonDayOf(from); day <= lastDay; day = nextDay(day))
      series.push({ start: iso(londonMidnight(day)), ...(byBucket.get(day) ?? ZERO) });
  }

  const perCompetition = competitions
    .map((row) => ({ competitionId: Number(row.competitionId), title: row.title, ...figuresOf(row) }))
    .sort((a, b) => b.revenuePence - a.revenuePence || a.competitionId - b.competitionId);
  // An order over several competitions counts once in the totals.
  const [totals] = (await paidLines(db, from, to).select(...FIGURES(db))) as Array<Record<string, unknown>>;
  return {
    from: iso(from),
    to: iso(to),
    bucket,
    timeZone: 'Europe/London',
    series,
    competitions: perCompetition,
    totals: figuresOf(totals as Parameters<typeof figuresOf>[0]),
  };
}

/** The dashboard's live tiles, but for the socket count, which only realtime/ knows. */
export async function liveSalesFigures(
  db: Knex,
  now = Date.now(),
): Promise<Omit<AdminLiveEvent, 'socketsConnected'>> {
  const [held, lastHour] = await Promise.all([
    db('tickets').where('status', 'reserved').where('expiresAt', '>', now).count({ n: '*' }).first(),
    db('orders')
      .where('status', 'completed')
      .where('paidAt', '>', now - HOUR_MS)
      .select(db.raw('count(*) as ??', ['n']), db.raw('sum(??) as ??', ['subtotalPence', 'pence']))
      .first(),
  ]);
  return {
    heldNow: Number((held as { n: unknown } | undefined)?.n ?? 0),
    paymentsLastHour: Number((lastHour as { n: unknown } | undefined)?.n ?? 0),
    revenueLastHourPence: Number((lastHour as { pence: unknown } | undefined)?.pence ?? 0),
    at: iso(now),
  };
}
