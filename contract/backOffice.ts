import * as v from 'valibot';
import type { AdminUserView } from './admin';
import type { CreditTransactionView } from './auth';
import type { AdminOrderView } from './checkout';
import { type PageInfo, pagingFields, searchText } from './paging';
import type { SpendLimitsView } from './protection';
import type { AdminReferralView } from './referrals';

// The back office's customer view, credit adjustments, notes and cancellation (issue 39 §10).
// Money is pounds here, as everywhere in the API; timestamps are ISO 8601.

const reasonText = (what: string, max = 500) =>
  v.pipe(
    v.string(`${what} is required`),
    v.trim(),
    v.minLength(3, `${what} must be at least 3 characters`),
    v.maxLength(max, `${what} must be at most ${max} characters`),
  );

/** Where a cancelled order's money goes: the card that paid, or the customer's site credit. */
export const REFUND_TARGETS = ['card', 'credit'] as const;
export type RefundTarget = (typeof REFUND_TARGETS)[number];

/** POST /api/admin/orders/:id/cancel. The reason is quoted in the customer's e-mail. */
export const CancelOrderSchema = v.object({
  reason: reasonText('A reason'),
  refundTo: v.optional(v.picklist(REFUND_TARGETS, 'Refund to must be card or credit'), 'card'),
});
export type CancelOrderInput = v.InferOutput<typeof CancelOrderSchema>;

/** GET /api/admin/customers: by username, e-mail, name or id. */
export const CustomerSearchQuerySchema = v.object({ search: searchText, ...pagingFields(25) });
export type CustomerSearchQuery = v.InferOutput<typeof CustomerSearchQuerySchema>;

export interface CustomerListView extends PageInfo {
  customers: AdminUserView[];
}

/** POST /api/admin/customers/:userId/credit: pounds, positive adds and negative takes away. */
export const CreditAdjustmentSchema = v.object({
  amount: v.pipe(
    v.number('The amount must be a number of pounds'),
    v.check((n) => Number.isFinite(n) && n !== 0, 'The amount must not be zero'),
    v.check((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'The amount must be whole pence'),
    v.check((n) => Math.abs(n) <= 10_000, 'The amount must be at most £10,000'),
  ),
  /** Kept in the ledger row's description (255 characters with the admin's name). */
  reason: reasonText('A reason', 200),
});
export type CreditAdjustmentInput = v.InferOutput<typeof CreditAdjustmentSchema>;

/** POST /api/admin/customers/:userId/notes. */
export const CustomerNoteSchema = v.object({
  text: v.pipe(
    v.string('A note is required'),
    v.trim(),
    v.minLength(1, 'A note is required'),
    v.maxLength(2000, 'A note must be at most 2000 characters'),
  ),
});

export interface CustomerNoteView {
  id: number;
  text: string;
  /** The admin who wrote it (null once their account is gone). */
  admin: string | null;
  createdAt: string;
}

export interface CustomerEntryView {
  competitionId: number;
  title: string;
  orderId: number;
  ticketNumbers: number[];
  purchasedAt: string;
}

/** GET /api/admin/customers/:userId. */
export interface CustomerView {
  user: AdminUserView;
  /** Pounds: the balance, always the ledger's sum. */
  creditBalance: number;
  orders: AdminOrderView[];
  entries: CustomerEntryView[];
  ledger: CreditTransactionView[];
  notes: CustomerNoteView[];
  protection: {
    spendLimits: SpendLimitsView;
    selfExcludedUntil: string | null;
  };
  /** The people this customer referred, newest first, with why any was not rewarded. */
  referrals: AdminReferralView[];
}

/** POST /api/admin/orders/:id/refund-tickets: some tickets of a paid order, back on sale and refunded. */
export const RefundTicketsSchema = v.object({
  competitionId: v.pipe(v.number('competitionId must be a number'), v.integer(), v.minValue(1)),
  numbers: v.pipe(
    v.array(v.pipe(v.number(), v.integer(), v.minValue(1)), 'numbers must be a list of ticket numbers'),
    v.minLength(1, 'Choose at least one ticket'),
    v.maxLength(100, 'At most 100 tickets at a time'),
    v.check((ns) => new Set(ns).size === ns.length, 'A ticket number is listed twice'),
  ),
  reason: reasonText('A reason'),
  refundTo: v.optional(v.picklist(REFUND_TARGETS, 'Refund to must be card or credit'), 'card'),
});
export type RefundTicketsInput = v.InferOutput<typeof RefundTicketsSchema>;
