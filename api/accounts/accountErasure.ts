import { lockRows } from '../../db/locks';
import { ANONYMOUS_WINNER } from '../draws/presenter';
import { eraseWinnerStoriesOf } from '../draws/stories/winnerStories';
import { undeliveredPrizesOf } from '../draws/winners';
import { conflict } from '../platform/errors';
import { forgetMailOf } from '../platform/outbox/owe';
import type { UnitOfWork } from '../platform/unitOfWork';
import { releaseAccountHolds } from '../tickets/holdRows';
import { erasePersonalData, personalStringsOf } from './compliance/personalData';

// Deleting an account, the one path for every way an account goes (the admin's Delete User and
// the customer's own DELETE /api/account). The person's login and personal data go, from every
// table (compliance/personalData.ts); orders, entries and the credit ledger stay as financial
// records attributed to a deleted user, and a winner's record stays public under an anonymised
// name (api/draws/presenter.ts winnerNameOf). A break outlives the account on the exclusion
// register (protection/exclusionRegister.ts), which holds only a keyed hash of the mailbox and the
// end. docs/compliance.md lists what is kept and why.

/** The 409 while the account has a prize still to be delivered (they must be reachable for it). */
export const undeliveredPrizeMessage = (titles: string[]) =>
  `This account won ${titles.map((t) => `"${t}"`).join(', ')} and the prize has not been delivered yet, ` +
  'so it cannot be deleted until the prize is marked delivered.';

/**
 * Erases the account inside the caller's unit of work, under the user row's lock (the caller's
 * lockTarget took it; taken again here, so no caller can forget it): a payment start of the
 * account waits for it and then finds the account gone (checkout/orderRows.ts). Refuses while a prize is undelivered, releases the held numbers, and replaces username and
 * e-mail with unique placeholders (freeing them) while clearing every personal field and the
 * password, erases or anonymises the rows elsewhere that name the person, and drops its rows in
 * the e-mail outbox. The caller ends the account's sessions after COMMIT.
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
  const strings = await personalStringsOf(trx, userId);
  const placeholder = `deleted-${userId}@deleted.invalid`;
  await trx('users')
    .where({ id: userId })
    .update({
      username: `deleted-${userId}`,
      email: placeholder,
      // The exclusion register keeps a break's entry on its own until the break ends.
      mailboxKey: null,
      passwordHash: 'deleted',
      firstName: null,
      lastName: null,
      // The nickname is freed; the record's name is the anonymised one.
      publicNameMode: 'initial',
      nickname: null,
      phoneNumber: '',
      addressLine1: null,
      addressLine2: null,
      addressTown: null,
      addressPostcode: null,
      // The date of birth goes; that an admin verified the age (and who) stays with the record.
      dateOfBirth: null,
      role: 'user',
      emailVerifiedAt: null,
      marketingEmails: false,
      marketingEmailsUpdatedAt: now,
      deletedAt: now,
      updatedAt: now,
    });
  await erasePersonalData(trx, userId, strings, placeholder);
  // A claim keeps what was chosen and when; the address and phone confirmed with it go.
  await trx('prizeClaims').where({ userId }).update({
    addressLine1: null,
    addressLine2: null,
    addressTown: null,
    addressPostcode: null,
    phoneNumber: null,
  });
  // Their instant wins stay public as a main prize's record does: the name (perhaps a nickname now
  // free for someone else) goes.
  await trx('instantWins').where({ userId }).whereNotNull('wonAt').update({ winnerName: ANONYMOUS_WINNER });
  await eraseWinnerStoriesOf(trx, userId);
  await forgetMailOf(trx, userId);
  // Its browsers' push endpoints are personal data, and nothing may be pushed to them again.
  await trx('pushSubscriptions').where({ userId }).delete();
}
