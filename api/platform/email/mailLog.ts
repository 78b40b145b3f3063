import type { Knex } from 'knex';
import { MAIL_LOG_LIMIT, type MailLogEntryView } from '../../../contract/admin';

/** A mail_log row as listed: the view's fields, with the time as stored (epoch ms). */
export type MailLogRow = Omit<MailLogEntryView, 'sentAt'> & { createdAt: number };

/** The newest e-mails first, optionally only those whose recipient contains `search`. */
export async function recentEmails(db: Knex, search?: string): Promise<MailLogRow[]> {
  const q = db('mailLog')
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(MAIL_LOG_LIMIT)
    .select('id', 'recipient', 'userId', 'subject', 'template', 'status', 'error', 'createdAt');
  // Lower-cased on both engines; '!' escapes the wildcards (one escape character both accept).
  if (search)
    q.whereRaw("lower(??) like ? escape '!'", [
      'recipient',
      `%${search.toLowerCase().replace(/[!%_]/g, '!$&')}%`,
    ]);
  return (await q) as MailLogRow[];
}
