import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { NOT_ME_LINK_INVALID } from '../../../contract/account';
import { User } from '../../../db/models';
import type { AppDeps } from '../../platform/context';
import { passwordChangedEmail, twoFactorOnEmail } from '../../platform/email/templates/accounts';
import { badRequest } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { hashPassword } from '../passwords';
import { endUserSessions } from '../userSessions';
import { greetingName, linkTo, sendAccountEmail } from './accountMail';
import { spendTokens } from './accountTokens';

// "This wasn't me" (issue 35 §5; docs/security.md#two-factor-sign-in): turning two-factor sign-in
// on e-mails the account's address a link that lets the owner take the account back from whoever
// turned it on with their cookie and password. Opening the link proves the mailbox; the page then
// sets a new password (the other party knew the old one), turns two-factor sign-in off and ends
// every session, in one step.
//
// The link is signed rather than stored: HMAC-SHA-256 (key derived from TWO_FACTOR_ENCRYPTION_KEY)
// over the user id, the moment two-factor sign-in was turned on and the expiry. It works once,
// because using it deletes exactly that two-factor row (a conditional DELETE on its enabled_at),
// after which it matches nothing; turning it off and on again makes a new row and a new link.

type Deps = Pick<AppDeps, 'db' | 'events' | 'mailer' | 'logger' | 'config'>;

/** How long the owner has to use the link; later, support review (docs/security.md). */
export const UNDO_LINK_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

const keyOf = (config: Deps['config']) =>
  Buffer.from(hkdfSync('sha256', config.twoFactorKey, 'wcp-signed-link', 'two-factor-undo', 32));

const macOf = (config: Deps['config'], body: string) =>
  createHmac('sha256', keyOf(config)).update(body).digest('base64url');

/** The link's token: 'v1.<user id>.<enabled at>.<expires at>.<mac>'. */
export function undoToken(config: Deps['config'], userId: number, enabledAt: number, expiresAt: number) {
  const body = `v1.${userId}.${enabledAt}.${expiresAt}`;
  return `${body}.${macOf(config, body)}`;
}

/** The token's fields when its signature is right and it has not expired; else undefined. */
export function readUndoToken(config: Deps['config'], token: string, now: number) {
  const parts = token.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1') return undefined;
  const [, user, enabled, expires, mac] = parts as [string, string, string, string, string];
  const expected = Buffer.from(macOf(config, `v1.${user}.${enabled}.${expires}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [userId, enabledAt, expiresAt] = [Number(user), Number(enabled), Number(expires)];
  if (![userId, enabledAt, expiresAt].every(Number.isSafeInteger) || expiresAt <= now) return undefined;
  return { userId, enabledAt };
}

/** Tells the account's address that two-factor sign-in was turned on, with the link. */
export async function tellTwoFactorOn(deps: Deps, user: User, enabledAt: number): Promise<void> {
  const expiresAt = enabledAt + UNDO_LINK_LIFETIME_MS;
  const link = linkTo(deps, '/two-factor-not-me', {
    token: undoToken(deps.config, user.id, enabledAt, expiresAt),
  });
  await sendAccountEmail(
    deps,
    twoFactorOnEmail,
    { to: user.email, userId: user.id },
    { name: greetingName(user), link, expiresAt, changedAt: enabledAt },
  );
}

/**
 * POST /api/account/2fa/not-me: with a valid link, sets the new password, turns two-factor
 * sign-in off and ends every session of the account (after COMMIT). Returns the account's id.
 */
export async function undoTwoFactor(deps: Deps, token: string, password: string, now = Date.now()) {
  const link = readUndoToken(deps.config, token, now);
  if (!link) throw badRequest(NOT_ME_LINK_INVALID);
  const passwordHash = await hashPassword(password);
  const user = await inUnitOfWork(deps, async ({ trx }) => {
    const removed = await trx('twoFactor').where({ userId: link.userId, enabledAt: link.enabledAt }).delete();
    if (removed !== 1) throw badRequest(NOT_ME_LINK_INVALID);
    const changed = await trx('users')
      .where({ id: link.userId })
      .whereNull('deletedAt')
      .update({ passwordHash, updatedAt: now });
    if (changed !== 1) throw badRequest(NOT_ME_LINK_INVALID);
    await trx('twoFactorRecoveryCodes').where({ userId: link.userId }).delete();
    // A reset link the other party may have asked for goes too.
    await spendTokens(trx, link.userId, 'reset_password', now);
    return User.query(trx).findById(link.userId).throwIfNotFound();
  });
  await endUserSessions(deps, user.id, { signOut: true });
  await sendAccountEmail(
    deps,
    passwordChangedEmail,
    { to: user.email, userId: user.id },
    { name: greetingName(user), changedAt: now },
  );
  return user.id;
}
