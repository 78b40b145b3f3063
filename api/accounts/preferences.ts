import { lockRows } from '../../db/locks';
import { User } from '../../db/models';
import { notFound } from '../platform/errors';
import { inUnitOfWork, type UnitOfWorkDeps } from '../platform/unitOfWork';

/**
 * The customer's marketing consent (PUT /api/account/preferences). The time is recorded whenever
 * the choice changes, as evidence of when consent was given or withdrawn; sending the same choice
 * again keeps the original time. The mailer reads the flag before any marketing e-mail
 * (api/platform/email/consent.ts).
 */
export async function setMarketingConsent(
  deps: UnitOfWorkDeps,
  userId: number,
  marketingEmails: boolean,
  now = Date.now(),
): Promise<User> {
  return inUnitOfWork(deps, async ({ trx }) => {
    const user = (await lockRows(trx, 'user', User.query(trx).findById(userId).whereNull('deletedAt'))) as
      | User
      | undefined;
    if (!user) throw notFound('User not found');
    if (Boolean(user.marketingEmails) === marketingEmails && user.marketingEmailsUpdatedAt !== null)
      return user;
    return User.query(trx).patchAndFetchById(userId, { marketingEmails, marketingEmailsUpdatedAt: now });
  });
}
