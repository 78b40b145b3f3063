import { RESET_LINK_INVALID, WRONG_PASSWORD } from '../../../contract/account';
import { User } from '../../../db/models';
import type { AppDeps } from '../../platform/context';
import { passwordChangedEmail, passwordResetEmail } from '../../platform/email/templates/accounts';
import { badRequest } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { hashPassword, verifyPassword } from '../passwords';
import { endUserSessions } from '../userSessions';
import { greetingName, linkTo, sendAccountEmail } from './accountMail';
import { issueToken, spendTokens, useToken } from './accountTokens';

// Forgotten and changed passwords (docs/product.md#account-security). A reset ends every session
// of the account; a change ends every other one, keeping the session that made it.

type Deps = Pick<AppDeps, 'db' | 'events' | 'mailer' | 'logger' | 'config'>;

/** The live account with exactly this address (addresses are stored in lower case). */
const accountWithEmail = (deps: Deps, email: string) =>
  User.query(deps.db)
    .whereNull('deletedAt')
    .whereRaw('lower(??) = ?', ['email', email.toLowerCase()])
    .first();

/**
 * Sends a reset link if an account has the address, and nothing otherwise. The route answers
 * before this runs, so neither the answer nor its timing says whether the account exists.
 */
export async function sendPasswordReset(deps: Deps, email: string, now = Date.now()): Promise<void> {
  const user = await accountWithEmail(deps, email);
  if (!user) return;
  const { token, expiresAt } = await inUnitOfWork(deps, ({ trx }) =>
    issueToken(trx, user.id, 'reset_password', { now }),
  );
  const link = linkTo(deps, '/reset-password', { token });
  await sendAccountEmail(
    deps,
    passwordResetEmail,
    { to: user.email, userId: user.id },
    {
      name: greetingName(user),
      link,
      expiresAt,
    },
  );
}

async function tellPasswordChanged(deps: Deps, user: User, now: number) {
  await sendAccountEmail(
    deps,
    passwordChangedEmail,
    { to: user.email, userId: user.id },
    {
      name: greetingName(user),
      changedAt: now,
    },
  );
}

/**
 * Sets a new password with a reset link: the link is spent and every session of the account ends.
 * Returns the account's id.
 */
export async function resetPassword(
  deps: Deps,
  token: string,
  password: string,
  now = Date.now(),
): Promise<number> {
  const passwordHash = await hashPassword(password);
  const user = await inUnitOfWork(deps, async ({ trx }) => {
    const used = await useToken(trx, 'reset_password', token, now);
    const changed = used
      ? await trx('users')
          .where({ id: used.userId })
          .whereNull('deletedAt')
          .update({ passwordHash, updatedAt: now })
      : 0;
    if (!used || changed !== 1) throw badRequest(RESET_LINK_INVALID);
    await spendTokens(trx, used.userId, 'reset_password', now);
    return User.query(trx).findById(used.userId).throwIfNotFound();
  });
  await endUserSessions(deps, user.id, { signOut: true });
  await tellPasswordChanged(deps, user, now);
  return user.id;
}

/**
 * Changes the signed-in customer's password after checking the current one. Every other session
 * ends; `sessionKey` (the one asking) stays signed in. Unused reset links are spent.
 */
export async function changePassword(
  deps: Deps,
  user: User,
  input: { currentPassword: string; newPassword: string },
  sessionKey: string | undefined,
  now = Date.now(),
): Promise<void> {
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) throw badRequest(WRONG_PASSWORD);
  const passwordHash = await hashPassword(input.newPassword);
  await inUnitOfWork(deps, async ({ trx }) => {
    await trx('users').where({ id: user.id }).update({ passwordHash, updatedAt: now });
    await spendTokens(trx, user.id, 'reset_password', now);
  });
  await endUserSessions(deps, user.id, { signOut: true, except: sessionKey });
  await tellPasswordChanged(deps, user, now);
}
