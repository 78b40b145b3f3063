import type { Knex } from 'knex';
import {
  ALREADY_VERIFIED,
  EMAIL_IN_USE,
  PASSWORD_INCORRECT,
  SAME_EMAIL,
  VERIFY_LINK_INVALID,
} from '../../../contract/account';
import { isUniqueViolation } from '../../../db/dialect';
import { User } from '../../../db/models';
import type { AppDeps } from '../../platform/context';
import { emailChangedEmail, verificationEmail, welcomeEmail } from '../../platform/email/templates/accounts';
import { badRequest, conflict } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { lockTarget } from '../adminUsers';
import { grantSignUpPromos } from '../credit';
import { verifyPassword } from '../passwords';
import { carryBreakToNewMailbox, mailboxKeyer } from '../protection/exclusionRegister';
import { settleReferral } from '../referrals/referralRewards';
import { greetingName, linkTo, sendAccountEmail } from './accountMail';
import { issueToken, useToken } from './accountTokens';
import { mailboxHash } from './mailbox';

// Confirming e-mail addresses (docs/product.md#account-security): at registration, on request
// again, and for a change of address, which takes effect only when the new address confirms it.
// The welcome credit is paid on the first confirmation of a mailbox, not at registration.

type Deps = Pick<AppDeps, 'db' | 'events' | 'mailer' | 'logger' | 'config'>;

/** Sends a confirmation link for `email` (the account's own, or the new address of a change). */
export async function sendVerification(deps: Deps, user: User, email = user.email, now = Date.now()) {
  const { token, expiresAt } = await inUnitOfWork(deps, ({ trx }) =>
    issueToken(trx, user.id, 'verify_email', { email, now }),
  );
  const link = linkTo(deps, '/verify-email', { token });
  await sendAccountEmail(
    deps,
    verificationEmail,
    { to: email, userId: user.id },
    {
      name: greetingName(user),
      link,
      expiresAt,
    },
  );
}

/** POST /api/verify-email/resend: a new link for the account's address, if it is not confirmed. */
export async function resendVerification(deps: Deps, user: User) {
  if (user.emailVerifiedAt !== null) throw badRequest(ALREADY_VERIFIED);
  await sendVerification(deps, user);
}

const emailTakenByOther = async (db: Knex, email: string, userId: number) =>
  Boolean(
    await User.query(db)
      .whereNull('deletedAt')
      .whereRaw('lower(??) = ?', ['email', email.toLowerCase()])
      .whereNot('id', userId)
      .first(),
  );

/**
 * POST /api/account/email: checks the password, sends a confirmation link to the new address and
 * a notice to the old one. Nothing changes until the link is opened.
 */
export async function requestEmailChange(
  deps: Deps,
  user: User,
  input: { email: string; password: string },
  /** Counts the e-mails against their limit (throws when over it); only a change that will be sent counts. */
  countEmails: () => Promise<void>,
) {
  if (!(await verifyPassword(input.password, user.passwordHash))) throw badRequest(PASSWORD_INCORRECT);
  if (input.email === user.email.toLowerCase()) throw badRequest(SAME_EMAIL);
  if (await emailTakenByOther(deps.db, input.email, user.id)) throw conflict(EMAIL_IN_USE);
  await countEmails();
  await sendVerification(deps, user, input.email);
  await sendAccountEmail(
    deps,
    emailChangedEmail,
    { to: user.email, userId: user.id },
    {
      name: greetingName(user),
      newEmail: input.email,
      changedAt: Date.now(),
    },
  );
}

/**
 * The welcome credit, once per mailbox (addresses compared normalised, see mailbox.ts). The
 * mailbox is claimed first: a parallel confirmation of the same mailbox waits on that row and
 * then finds it taken. A claim that paid nothing (no live promo, or this account had it already)
 * is given back.
 */
async function grantWelcomeCredit(trx: Knex.Transaction, userId: number, email: string, now: number) {
  const hash = mailboxHash(email);
  try {
    await trx('welcomeMailboxes').insert({ mailboxHash: hash, userId, createdAt: now });
  } catch (err) {
    if (isUniqueViolation(err)) return 0;
    throw err;
  }
  const granted = await grantSignUpPromos(trx, userId, now);
  if (!granted) await trx('welcomeMailboxes').where({ mailboxHash: hash }).delete();
  return granted;
}

/**
 * POST /api/verify-email: confirms the address the link was sent to (the account's own, or the
 * new one of a change), pays the welcome credit where due, and sends the welcome e-mail the first
 * time an account is confirmed.
 */
export async function verifyEmail(deps: Deps, token: string, now = Date.now()) {
  const keyOf = mailboxKeyer(deps.config.exclusionKey);
  const { user, firstTime, welcomePence } = await inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const used = await useToken(trx, 'verify_email', token, now);
    if (!used) throw badRequest(VERIFY_LINK_INVALID);
    const target = await lockTarget(trx, used.userId).catch(() => undefined);
    if (!target) throw badRequest(VERIFY_LINK_INVALID);
    const email = used.email ?? target.email;
    if (email !== target.email) {
      if (await emailTakenByOther(trx, email, target.id)) throw conflict(EMAIL_IN_USE);
    }
    // The new address's mailbox key: the exclusion register follows the account to it, and a
    // break the account is taking follows it to the register under the new mailbox.
    const mailboxKey = keyOf(email);
    await trx('users')
      .where({ id: target.id })
      .update({ email, mailboxKey, emailVerifiedAt: now, updatedAt: now });
    if (email !== target.email) await carryBreakToNewMailbox(uow, target.id, mailboxKey, now);
    const welcome = await grantWelcomeCredit(trx, target.id, email, now);
    return {
      user: await User.query(trx).findById(target.id).throwIfNotFound(),
      firstTime: target.emailVerifiedAt === null,
      welcomePence: welcome,
    };
  });
  // A referral waiting for this confirmation (and a paid order) is settled now, after COMMIT.
  await settleReferral(deps.db, user.id, now).catch((err) =>
    deps.logger.error({ err, userId: user.id }, 'referral not settled'),
  );
  if (firstTime) {
    await sendAccountEmail(
      deps,
      welcomeEmail,
      { to: user.email, userId: user.id },
      {
        name: greetingName(user),
        creditPence: welcomePence,
      },
    );
  }
  return { user, welcomePence };
}
