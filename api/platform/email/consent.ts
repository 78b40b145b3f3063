import type { Knex } from 'knex';

/**
 * May this account be sent marketing? Only a live account whose owner ticked 'marketing e-mails'
 * (PUT /api/account/preferences, or the box at registration). The one place the rule lives: the
 * mailer asks it before every marketing e-mail.
 */
export async function mayReceiveMarketing(db: Knex, userId: number | null | undefined): Promise<boolean> {
  if (!userId) return false;
  const row = (await db('users').where({ id: userId }).whereNull('deletedAt').first('marketingEmails')) as
    | { marketingEmails: number | boolean }
    | undefined;
  // Self-exclusion (responsible play) is not built yet. When it is, a self-excluded customer gets
  // no marketing whatever their consent: add that check here, and nowhere else.
  return Boolean(row?.marketingEmails);
}
