import type { Knex } from 'knex';

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
    .first(
      'users.marketingEmails',
      'users.selfExcludedUntil',
      // The exclusion register's break for this mailbox (api/accounts/protection/exclusionRegister.ts).
      db('exclusionRegister')
        .max('endsAt')
        .where('exclusionRegister.keyHash', db.ref('users.mailboxKey'))
        .as('registeredUntil'),
    )) as
    | {
        marketingEmails: number | boolean;
        selfExcludedUntil: number | string | null;
        registeredUntil: number | string | null;
      }
    | undefined;
  // A person taking a break (self-exclusion) gets no marketing whatever their consent.
  const until = Math.max(Number(row?.selfExcludedUntil ?? 0), Number(row?.registeredUntil ?? 0));
  if (until > Date.now()) return false;
  return Boolean(row?.marketingEmails);
}
