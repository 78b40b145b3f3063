import * as v from 'valibot';
import { formatLongDate, formatUkDateTime, londonDayOf, londonMidnight } from './londonTime';
import { formatPence } from './money';

// Player protection (docs/product.md#player-protection), after the DCMS prize-draw code of 2025:
// monthly spend limits, time-outs and self-exclusion, the credit-card cap and the operator's harm
// report. Amounts are integer pence; times ISO 8601.

/** The highest monthly limit a customer may set: £100,000. */
export const MAX_SPEND_LIMIT_PENCE = 10_000_000;
/** How long a higher limit (or removing it) waits before it applies. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000;

/** '£250' for whole pounds, '£12.50' otherwise. */
export const formatLimit = (pence: number): string =>
  pence % 100 === 0 ? formatPence(pence).replace(/\.00$/, '') : formatPence(pence);

export const spendLimitMessage = (limitPence: number, leftPence: number) =>
  `This would take you over your monthly spending limit of ${formatLimit(limitPence)} (${formatLimit(Math.max(leftPence, 0))} left this month).`;

export const creditCardCapMessage = (capPence: number) =>
  `Credit card payments are limited to ${formatLimit(capPence)} a month. Use a debit card or site credit.`;

/** What a customer taking a break is told wherever they try to enter, e.g. on 28 May 2031 (London). */
export const selfExcludedMessage = (untilIso: string) =>
  `You're taking a break until ${formatLongDate(untilIso)}. You can't enter until then.`;

/** PUT /api/account/limits: null removes the limit (after 24 hours). */
export const SpendLimitSchema = v.object({
  monthlySpendLimitPence: v.nullable(
    v.pipe(
      v.number('Enter a monthly limit in pence, or null for none'),
      v.integer('The limit must be a whole number of pence'),
      v.minValue(0, 'The limit cannot be negative'),
      v.maxValue(MAX_SPEND_LIMIT_PENCE, `The limit can be at most ${formatLimit(MAX_SPEND_LIMIT_PENCE)}`),
    ),
  ),
});
export type SpendLimitInput = v.InferOutput<typeof SpendLimitSchema>;

/** GET and PUT /api/account/limits. */
export interface SpendLimitsView {
  monthlySpendLimitPence: number | null;
  /** A raise or removal that applies at effectiveAt. */
  pending: { monthlySpendLimitPence: number | null; effectiveAt: string } | null;
  /** Paid orders plus payments in flight, this UK calendar month. */
  spentThisMonthPence: number;
}

export const SELF_EXCLUSION_PERIODS = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  '6m': '6 months',
  '1y': '1 year',
  '5y': '5 years',
} as const;
export type SelfExclusionPeriod = keyof typeof SELF_EXCLUSION_PERIODS;

/** POST /api/account/self-exclusion. */
export const SelfExclusionSchema = v.object({
  period: v.picklist(
    Object.keys(SELF_EXCLUSION_PERIODS) as SelfExclusionPeriod[],
    'Choose how long to take a break for',
  ),
});

/** GET and POST /api/account/self-exclusion: null when not excluded. */
export interface SelfExclusionView {
  selfExcludedUntil: string | null;
}

/**
 * GET /api/account/play-state: what stops the customer entering right now, so the competition page
 * and the cart can say so before Buy Now and checkout (the server still refuses on its own).
 */
export interface PlayStateView {
  /** When the person's break ends (any account of their mailbox); null when not on one. */
  onBreakUntil: string | null;
  /**
   * The monthly limit in force and what is left of it this UK month (paid orders; checkout replaces
   * an open one), and when more can be spent: the next UK month, or a pending raise if sooner.
   * Null without a limit.
   */
  spendLimit: { limitPence: number; leftPence: number; moreFrom: string } | null;
}

/**
 * Why the customer cannot spend `pricePence` now, and until when; null when they can. The one
 * banner of the competition page and the cart.
 */
export function playRefusal(state: PlayStateView | undefined, pricePence: number): string | null {
  if (!state) return null;
  if (state.onBreakUntil) return selfExcludedMessage(state.onBreakUntil);
  const limit = state.spendLimit;
  if (!limit || pricePence <= limit.leftPence) return null;
  const when = formatUkDateTime(limit.moreFrom);
  return limit.leftPence === 0
    ? `You've reached your monthly spending limit of ${formatLimit(limit.limitPence)}. You can enter again from ${when}.`
    : `${spendLimitMessage(limit.limitPence, limit.leftPence)} You can spend more from ${when}.`;
}

/** When a break of this length, started at `from`, ends (calendar months and years in UTC). */
export function selfExclusionEnd(period: SelfExclusionPeriod, from: number): number {
  const d = new Date(from);
  const days = { '24h': 1, '7d': 7, '30d': 30 } as const;
  if (period in days) return from + days[period as keyof typeof days] * 24 * 60 * 60 * 1000;
  if (period === '6m') d.setUTCMonth(d.getUTCMonth() + 6);
  else d.setUTCFullYear(d.getUTCFullYear() + (period === '1y' ? 1 : 5));
  return d.getTime();
}

/** The start of the UK calendar month containing `at` (midnight Europe/London), epoch ms. */
export const ukMonthStart = (at: number): number => londonMidnight(`${londonDayOf(at).slice(0, 8)}01`);

export const HARM_ACTIONS = {
  no_action: 'No action needed',
  contacted: 'Contacted the customer',
  suggested_limit: 'Suggested a spending limit',
  watch: 'Keep watching',
  referred: 'Referred to support services',
} as const;
export type HarmAction = keyof typeof HARM_ACTIONS;

/** POST /api/admin/harm-report/:userId/reviews. */
export const HarmReviewSchema = v.object({
  action: v.picklist(Object.keys(HARM_ACTIONS) as HarmAction[], 'Choose an action'),
  note: v.pipe(
    v.string('Write a note'),
    v.trim(),
    v.nonEmpty('Write a note'),
    v.maxLength(2000, 'The note can be at most 2000 characters'),
  ),
});

/** PUT /api/admin/harm-report/thresholds: pence, at least £1. */
export const HarmThresholdsSchema = v.object({
  spend24hPence: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(100, 'At least £1'),
    v.maxValue(MAX_SPEND_LIMIT_PENCE),
  ),
  spend30dPence: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(100, 'At least £1'),
    v.maxValue(MAX_SPEND_LIMIT_PENCE),
  ),
});
export type HarmThresholds = v.InferOutput<typeof HarmThresholdsSchema>;

export interface HarmReviewView {
  id: number;
  action: HarmAction;
  note: string;
  adminName: string | null;
  createdAt: string;
}

export interface HarmReportRow {
  userId: number;
  username: string;
  email: string;
  spent24hPence: number;
  spent30dPence: number;
  monthlySpendLimitPence: number | null;
  pendingSpendLimit: SpendLimitsView['pending'];
  selfExcludedUntil: string | null;
  reviews: HarmReviewView[];
}

/** GET /api/admin/harm-report. */
export interface HarmReportView {
  thresholds: HarmThresholds;
  rows: HarmReportRow[];
}
