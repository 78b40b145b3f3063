import type { Knex } from 'knex';
import { type BreakColumns, breakColumns, breakEndOf } from '../personBreak';

/**
 * May this account be sent marketing? Only a live account whose owner ticked 'marketing e-mails'
 * (PUT /api/account/preferences, or the box at registration). The one place the rule lives: the
 * mailer asks it before every marketing e-mail.
 */
export async function mayReceiveMarketing(db: Knex, userId: number | null | undefined): Promise<boolean> {
  if (!userId) return false;
  const row = (await db('users')
    .where('users.id', userId)
    .whereNull('users.deletedAt')
    .first('users.marketingEmails', ...breakColumns(db))) as
    | ({ marketingEmails: number | boolean } & BreakColumns)
    | undefined;
  // A person taking a break (self-exclusion) gets no marketing whatever their consent.
  if (breakEndOf(row) > Date.now()) return false;
  return Boolean(row?.marketingEmails);
}
