import { lockRows } from '../../db/locks';
import { undeliveredPrizesOf } from '../draws/winners';
import { conflict } from '../platform/errors';
import type { UnitOfWork } from '../platform/unitOfWork';
import { releaseAccountHolds } from '../tickets/holdRows';
import { spendTokens } from './security/accountTokens';

// Deleting an account, the one path for every way an account goes (the admin's Delete User and
// the customer's own DELETE /api/account). The person's login and personal
// data go; orders, entries and the credit ledger stay as financial records attributed to a
// deleted user, and a winner's record stays public under an anonymised name
// (api/draws/presenter.ts winnerNameOf).

/** The 409 while the account has a prize still to be delivered (they must be reachable for it). */
export const undeliveredPrizeMessage = (titles: string[]) =>
  `This account won ${titles.map((t) => `"${t}"`).join(', ')} and the prize has not been delivered yet, ` +
  'so it cannot be deleted until the prize is marked delivered.';

/**
 * Erases the account inside the caller's unit of work, under the user row's lock (the caller's
 * lockTarget took it; taken again here, so no caller can forget it): a payment start of the
 * account waits for it and then finds the account gone (checkout/orderRows.ts). Refuses while a prize is undelivered, releases the held numbers, and replaces username and
 * e-mail with unique placeholders (freeing them) while clearing every personal field and the
 * password, and spends any unused e-mailed links. The caller ends the account's sessions after COMMIT.
 */
export async function eraseAccount(uow: UnitOfWork, userId: number, now: number): Promise<void> {
  const { trx } = uow;
  await lockRows(trx, 'user', trx('users').where({ id: userId }).first('id'));
  const prizes = await undeliveredPrizesOf(trx, userId);
  if (prizes.length) {
    throw conflict(undeliveredPrizeMessage(prizes.map((p) => p.title)), {
      competitionIds: prizes.map((p) => p.competitionId),
    });
  }
  await releaseAccountHolds(uow, userId, 'account deleted');
  await trx('users')
    .where({ id: userId })
    .update({
      username: `deleted-${userId}`,
      email: `deleted-${userId}@deleted.invalid`,
      passwordHash: 'deleted',
      firstName: null,
      lastName: null,
      phoneNumber: '',
      // The date of birth goes; that an admin verified the age (and who) stays with the record.
      dateOfBirth: null,
      role: 'user',
      emailVerifiedAt: null,
      marketingEmails: false,
      marketingEmailsUpdatedAt: now,
      deletedAt: now,
      updatedAt: now,
    });
  await spendTokens(trx, userId, undefined, now);
}
