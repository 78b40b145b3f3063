import { formatOrderNumber } from '../../../contract/checkout';
import type { AdminComplaintView, ComplaintStatus, ComplaintView } from '../../../contract/complaints';
import { iso } from '../../../contract/dates';

/** A complaint row with its customer and replies, as complaints.ts reads it. */
export interface ComplaintRecord {
  id: number;
  reference: string;
  userId: number;
  username: string;
  email: string;
  orderId: number | null;
  subject: string;
  message: string;
  status: ComplaintStatus;
  dueAt: number;
  createdAt: number;
  replies: Array<{ message: string; adminUsername: string | null; createdAt: number }>;
}

/** As the customer sees it: no admin names. */
export const presentComplaint = (c: ComplaintRecord): ComplaintView => ({
  reference: c.reference,
  subject: c.subject,
  message: c.message,
  status: c.status,
  orderNumber: c.orderId === null ? null : formatOrderNumber(c.orderId),
  createdAt: iso(c.createdAt),
  dueAt: iso(c.dueAt),
  replies: c.replies.map((r) => ({ message: r.message, createdAt: iso(r.createdAt) })),
});

/** In the admin's queue: overdue while open past its due date. */
export const presentAdminComplaint = (c: ComplaintRecord, now: number): AdminComplaintView => ({
  ...presentComplaint(c),
  id: c.id,
  customer: { id: c.userId, username: c.username, email: c.email },
  orderId: c.orderId,
  overdue: c.status === 'open' && now > c.dueAt,
  replies: c.replies.map((r) => ({
    message: r.message,
    adminUsername: r.adminUsername,
    createdAt: iso(r.createdAt),
  })),
});
