import * as v from 'valibot';

// GET /api/admin/stats/sales (docs/product.md#admin-charts): tickets sold and revenue per hour or
// per UK day over a range, and per competition. Only completed (paid, not cancelled or refunded)
// orders count, at the moment they were paid.

export const SALES_BUCKETS = ['hour', 'day'] as const;
export type SalesBucket = (typeof SALES_BUCKETS)[number];

const HOUR_MS = 3_600_000;
/** The longest range per bucket size, so one answer stays a chart's worth of points. */
export const MAX_RANGE_MS: Record<SalesBucket, number> = { hour: 31 * 24 * HOUR_MS, day: 400 * 24 * HOUR_MS };

const instant = (field: string) =>
  v.pipe(
    v.string(`${field} is required`),
    v.isoTimestamp(`${field} must be an ISO 8601 date and time, e.g. 2026-11-23T00:00:00Z`),
    v.transform((text) => Date.parse(text)),
    v.check((ms) => Number.isFinite(ms), `${field} is not a real date`),
  );

export const SalesStatsQuerySchema = v.pipe(
  v.object({
    from: instant('from'),
    to: instant('to'),
    bucket: v.optional(v.picklist(SALES_BUCKETS, "bucket must be 'hour' or 'day'"), 'day'),
  }),
  v.check(({ from, to }) => to > from, 'to must be after from'),
  v.check(
    ({ from, to, bucket }) => to - from <= MAX_RANGE_MS[bucket],
    'That range is too long: at most 31 days by hour or 400 days by day.',
  ),
);
export type SalesStatsQuery = v.InferOutput<typeof SalesStatsQuerySchema>;

const SalesFiguresSchema = v.object({
  tickets: v.number(),
  revenuePence: v.number(),
  orders: v.number(),
});

export const SalesStatsSchema = v.object({
  from: v.string(),
  to: v.string(),
  bucket: v.picklist(SALES_BUCKETS),
  /** Buckets are UK hours and UK calendar days. */
  timeZone: v.literal('Europe/London'),
  /** Every bucket of the range in order, empty ones included; `start` is the bucket's first instant. */
  series: v.array(v.object({ start: v.string(), ...SalesFiguresSchema.entries })),
  /** Competitions with sales in the range, best revenue first. */
  competitions: v.array(
    v.object({ competitionId: v.number(), title: v.string(), ...SalesFiguresSchema.entries }),
  ),
  totals: SalesFiguresSchema,
});
export type SalesStats = v.InferOutput<typeof SalesStatsSchema>;

/** Extension, room `admins` only: the dashboard's live tiles, after anything that moves them. */
export const AdminLiveEventSchema = v.object({
  /** Socket.IO connections open on the process that sent this. */
  socketsConnected: v.number(),
  /** Numbers held in carts right now, across every competition. */
  heldNow: v.number(),
  /** Orders paid in the hour before `at`, and their ticket value. */
  paymentsLastHour: v.number(),
  revenueLastHourPence: v.number(),
  at: v.pipe(v.string(), v.isoTimestamp()),
});
export type AdminLiveEvent = v.InferOutput<typeof AdminLiveEventSchema>;
