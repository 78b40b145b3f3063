import * as v from 'valibot';
import { wholeNumber } from './formNumbers';
import { formatDayMonthAt } from './londonTime';

// Minimum sales and cancellation (docs/product.md#minimum-sales-and-cancellation). A competition
// may need `minTicketsSold` by its end date; short of it, the end date moves on by `extendByDays`
// (at most `maxExtensions` times), then the competition is cancelled and every order refunded by
// a bulk refund job. An admin can cancel (and refund) a competition the same way at any time
// before its draw is fixed.

export const MAX_EXTEND_BY_DAYS = 30;
export const MAX_EXTENSIONS = 3;
export const DEFAULT_EXTEND_BY_DAYS = 7;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The admin body's fields (merged into the competition create and update schemas). */
export const minimumSalesFields = {
  minTicketsSold: v.nullable(
    v.pipe(
      wholeNumber('The minimum must be a whole number of tickets of at least 1'),
      v.minValue(1, 'The minimum must be a whole number of tickets of at least 1'),
    ),
  ),
  extendByDays: v.pipe(
    wholeNumber('Extend by must be a whole number of days from 1 to 30'),
    v.minValue(1, 'Extend by must be a whole number of days from 1 to 30'),
    v.maxValue(MAX_EXTEND_BY_DAYS, 'Extend by must be a whole number of days from 1 to 30'),
  ),
  maxExtensions: v.pipe(
    wholeNumber('Extensions must be a whole number from 0 to 3'),
    v.minValue(0, 'Extensions must be a whole number from 0 to 3'),
    v.maxValue(MAX_EXTENSIONS, 'Extensions must be a whole number from 0 to 3'),
  ),
};

/** 400 when the minimum is more tickets than the competition has. */
export const MINIMUM_OVER_TOTAL = 'The minimum cannot be more than the total number of tickets.';
/** 409 when the minimum, or how it extends, changes after the competition was extended. */
export const MINIMUM_LOCKED = "This competition has been extended, so its minimum can't change.";

/** Why a competition that missed its minimum was cancelled (its page, the e-mails, the job). */
export const minimumNotReached = (min: number) =>
  `the minimum of ${min.toLocaleString('en-GB')} entries was not reached`;

/** The page's banner of an extended competition. */
export const extendedNotice = (endDate: string | number, min: number) =>
  `Extended to ${formatDayMonthAt(endDate)}: fewer than ${min.toLocaleString('en-GB')} tickets were sold`;

/** The page's banner of a cancelled competition. */
export const cancelledNotice = (reason: string) =>
  `Cancelled: ${reason.replace(/[.\s]+$/, '')}. Every entry has been refunded.`;

/** The rule, for the odds panel and the Terms; null without a minimum. */
export function minimumSalesRule(c: {
  minTicketsSold?: number | null;
  extendByDays?: number;
  maxExtensions?: number;
}): string | null {
  if (!c.minTicketsSold) return null;
  const min = c.minTicketsSold.toLocaleString('en-GB');
  const extensions = c.maxExtensions ?? 0;
  const extend = extensions
    ? `the end date moves on by ${c.extendByDays ?? DEFAULT_EXTEND_BY_DAYS} days, up to ${extensions} time${extensions === 1 ? '' : 's'}; after that, `
    : '';
  return `This competition needs at least ${min} tickets sold by its end date. If fewer are sold, ${extend}it is cancelled and every entry is refunded.`;
}

/** The rule and its state, as the public and admin competition detail carry them. */
export const MinimumSalesViewSchema = {
  minTicketsSold: v.optional(v.nullable(v.number())),
  extendByDays: v.optional(v.number()),
  maxExtensions: v.optional(v.number()),
  extensionsUsed: v.optional(v.number()),
  /** A cancelled competition: why (null otherwise). */
  cancellationReason: v.optional(v.nullable(v.string())),
};

/** The rule and its state from a competition's columns, as both details carry them. */
export const minimumSalesOf = (c: {
  minTicketsSold?: number | null;
  extendByDays?: number | null;
  maxExtensions?: number | null;
  extensionsUsed?: number | null;
  cancellationReason?: string | null;
}) => ({
  minTicketsSold: c.minTicketsSold ?? null,
  extendByDays: Number(c.extendByDays ?? DEFAULT_EXTEND_BY_DAYS),
  maxExtensions: Number(c.maxExtensions ?? 0),
  extensionsUsed: Number(c.extensionsUsed ?? 0),
  cancellationReason: c.cancellationReason ?? null,
});

/** POST /api/admin/competitions/:id/cancel */
export const CancelCompetitionSchema = v.object({
  reason: v.pipe(
    v.string('Please give a reason: entrants see it'),
    v.trim(),
    v.minLength(3, 'Please give a reason: entrants see it'),
    v.maxLength(300, 'The reason can be at most 300 characters'),
  ),
});
export type CancelCompetitionInput = v.InferOutput<typeof CancelCompetitionSchema>;

export const CANCEL_DRAWN = "This competition has been drawn, so it can't be cancelled.";
export const CANCEL_DRAW_FIXED =
  "This competition's draw is fixed to a beacon round, so it can't be cancelled.";
export const ALREADY_CANCELLED = 'This competition has already been cancelled.';
export const JOB_NOT_FOUND = 'Job not found';

export const BULK_REFUND_STATUSES = ['running', 'done', 'failed'] as const;

/** GET /api/admin/jobs/:jobId, and the `admin:job` event: counting orders. */
export const BulkRefundJobSchema = v.object({
  id: v.number(),
  competitionId: v.number(),
  status: v.picklist(BULK_REFUND_STATUSES),
  done: v.number(),
  total: v.number(),
  failed: v.number(),
  /** What the admin must deal with by hand (spent instant-win credit, an order that failed). */
  notes: v.array(v.string()),
});
export type BulkRefundJobView = v.InferOutput<typeof BulkRefundJobSchema>;

/** `competition:extended`, room `competition:<id>`. */
export const CompetitionExtendedEventSchema = v.object({
  competitionId: v.number(),
  endDate: v.string(),
  extensionsUsed: v.number(),
});
export type CompetitionExtendedEvent = v.InferOutput<typeof CompetitionExtendedEventSchema>;

/** Path parameter :jobId. */
export const JobIdParamSchema = v.object({
  jobId: v.pipe(v.string(), v.regex(/^[1-9]\d{0,9}$/, JOB_NOT_FOUND), v.transform(Number)),
});
