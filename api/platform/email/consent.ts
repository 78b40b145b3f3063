import type { Knex } from 'knex';
import { type BreakColumns, breakColumns, breakEndOf } from '../personBreak';

/**
 * May this account be sent marketing? Only a live account with a confirmed address whose owner
 * ticked 'marketing e-mails' (PUT /api/account/preferences, or the box at registration) and is not
 * taking a break. The mailer asks it before every marketing e-mail; the campaigns choose their
 * audience with the same conditions (`marketingAudience`).
 */
export async function mayReceiveMarketing(db: Knex, userId: number | null | undefined): Promise<boolean> {
  if (!userId) return false;
  const row = (await db('users')
    .where('users.id', userId)
    .whereNull('users.deletedAt')
    .first('users.marketingEmails', 'users.emailVerifiedAt', ...breakColumns(db))) as
    | ({ marketingEmails: number | boolean; emailVerifiedAt: number | string | null } & BreakColumns)
    | undefined;
  // A person taking a break (self-exclusion) gets no marketing whatever their consent.
  if (breakEndOf(row) > Date.now()) return false;
  if (row?.emailVerifiedAt === null || row?.emailVerifiedAt === undefined) return false;
  return Boolean(row.marketingEmails);
}

/**
 * The accounts `mayReceiveMarketing` lets through, as a query to narrow further (who entered or
 * watches a competition): live, confirmed, opted in, no break running at `now`.
 */
export function marketingAudience(db: Knex, now: number) {
  return db('users')
    .whereNull('users.deletedAt')
    .whereNotNull('users.emailVerifiedAt')
    .where('users.marketingEmails', true)
    .andWhere((q) => q.whereNull('users.selfExcludedUntil').orWhere('users.selfExcludedUntil', '<=', now))
    .whereNotExists(
      db('exclusionRegister')
        .select('exclusionRegister.keyHash')
        .where('exclusionRegister.keyHash', db.ref('users.mailboxKey'))
        .andWhere('exclusionRegister.endsAt', '>', now),
    );
}
