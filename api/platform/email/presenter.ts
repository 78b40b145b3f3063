import type { MailLogEntryView } from '../../../contract/admin';
import { iso } from '../../../contract/dates';
import type { MailLogRow } from './mailLog';

export const presentMailLogEntry = (r: MailLogRow): MailLogEntryView => ({
  id: r.id,
  recipient: r.recipient,
  userId: r.userId,
  subject: r.subject,
  template: r.template,
  status: r.status,
  error: r.error,
  sentAt: iso(r.createdAt),
});
