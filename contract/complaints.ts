import * as v from 'valibot';
import { type PageInfo, pagingFields, searchText } from './paging';
import { trimmed as text } from './receipts';

// The complaints process (docs/product.md#complaints): a signed-in customer complains, with an
// order of theirs if it is about one; the admin replies (by e-mail) and closes it.

export const COMPLAINT_STATUSES = ['open', 'responded', 'closed'] as const;
export type ComplaintStatus = (typeof COMPLAINT_STATUSES)[number];

/** POST /api/complaints. */
export const ComplaintCreateSchema = v.object({
  subject: text('Subject', 200),
  message: text('Message', 5000),
  orderId: v.optional(
    v.nullable(
      v.pipe(
        v.number('The order must be one of your orders'),
        v.integer('The order must be one of your orders'),
        v.minValue(1, 'The order must be one of your orders'),
      ),
    ),
  ),
});
export type ComplaintCreateInput = v.InferOutput<typeof ComplaintCreateSchema>;

/** POST /api/admin/complaints/:id/reply. */
export const ComplaintReplySchema = v.object({ message: text('Reply', 5000) });

/** GET /api/admin/complaints?status=&search=&page=&pageSize= */
export const ComplaintQueueQuerySchema = v.object({
  status: v.optional(
    v.picklist(COMPLAINT_STATUSES, `Status must be one of ${COMPLAINT_STATUSES.join(', ')}`),
  ),
  /** A reference, or part of the customer's username or e-mail, or of the subject. */
  search: searchText,
  ...pagingFields(25),
});
export type ComplaintQueueQuery = v.InferOutput<typeof ComplaintQueueQuerySchema>;

/** PUT /api/admin/settings/compliance: the complaint deadline and the prize age-check threshold. */
export const ComplianceSettingsSchema = v.object({
  complaintResponseDays: v.pipe(
    v.number('Response days must be a whole number from 1 to 56'),
    v.integer('Response days must be a whole number from 1 to 56'),
    v.minValue(1, 'Response days must be a whole number from 1 to 56'),
    v.maxValue(56, 'Response days must be a whole number from 1 to 56'),
  ),
  /** Pounds: a prize worth more than this needs an age-verified winner before delivery. */
  ageCheckPrizeThreshold: v.pipe(
    v.number('The threshold must be an amount in pounds'),
    v.minValue(0, 'The threshold must be £0 or more'),
    v.maxValue(1_000_000, 'The threshold must be at most £1,000,000'),
    v.check((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'The threshold must be in whole pence'),
  ),
});
export type ComplianceSettings = v.InferOutput<typeof ComplianceSettingsSchema>;

export interface ComplaintReplyView {
  message: string;
  createdAt: string;
}

/** A complaint as its customer sees it (My Account). */
export interface ComplaintView {
  reference: string;
  subject: string;
  message: string;
  status: ComplaintStatus;
  /** The ORD- number of the order it is about, if any. */
  orderNumber: string | null;
  createdAt: string;
  /** When the site promises an answer by (ISO 8601). */
  dueAt: string;
  replies: ComplaintReplyView[];
}

/** A complaint in the admin's queue. */
export interface AdminComplaintView extends ComplaintView {
  id: number;
  customer: { id: number; username: string; email: string };
  orderId: number | null;
  overdue: boolean;
  replies: Array<ComplaintReplyView & { adminUsername: string | null }>;
}

/** The admin's queue, a page at a time: open first, then replied, then closed; each by due date. */
export interface ComplaintQueueView extends PageInfo {
  complaints: AdminComplaintView[];
}

/** POST /api/complaints answers 201 with the reference to quote. */
export interface ComplaintCreatedView {
  reference: string;
}
