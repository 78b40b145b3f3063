import type { Knex } from 'knex';

/**
 * May this account be sent marketing? Only a live account whose owner ticked 'marketing e-mails'
 * (PUT /api/account/preferences, or the box at registration). The one place the rule lives: the
 * mailer asks it before every marketing e-mail.
 */
export async function mayReceiveMarketing(db: Knex, userId: number | null | undefined): Promise<boolean> {
  if (!userId) return false;
  const row = (await db('users')
    .where({ id: userId })
    .whereNull('deletedAt')
    .first('marketingEmails', 'selfExcludedUntil')) as
    | { marketingEmails: number | boolean; selfExcludedUntil: number | string | null }
    | undefined;
  // A customer taking a break (self-exclusion) gets no marketing whatever their consent.
  if (Number(row?.selfExcludedUntil ?? 0) > Date.now()) return false;
  return Boolean(row?.marketingEmails);
}
