import type { Router } from '@koa/router';
import type { Context } from 'koa';
import {
  type AccountMessageView,
  FORGOT_PASSWORD_SENT,
  type VerifyEmailView,
} from '../../../contract/account';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import { penceToPounds } from '../../../contract/money';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { createLoginThrottle, waitPhrase } from '../accountLimits';
import { deleteOwnAccount, exportAccount, listAccountSessions } from '../security/accountPrivacy';
import { requestEmailChange, resendVerification, verifyEmail } from '../security/emailVerification';
import { normaliseMailbox } from '../security/mailbox';
import { changePassword, resetPassword, sendPasswordReset } from '../security/passwordReset';
import { endSessions, endUserSessions, sessionPublicId, sessionsOf } from '../userSessions';

const HOUR = 3600;
const tooManyEmails = (seconds: number) =>
  `Too many e-mails have been requested. Please try again in ${waitPhrase(seconds)}.`;

/** The rate limits and checks the security routes share; one set per app. */
function createSecurityGuards(deps: AppDeps) {
  const signedIn = requireUser(deps.db);
  // E-mails one address may ask for (ACCOUNT_EMAILS_PER_ADDRESS an hour), and per mailbox or account.
  const emailsPerAddress = deps.rateLimits.limiter({
    name: 'account-mail-address',
    points: deps.config.accountEmailsPerAddress,
    durationSeconds: HOUR,
    guesses: true,
  });
  const emailsPerMailbox = deps.rateLimits.limiter({
    name: 'account-mail-mailbox',
    points: 3,
    durationSeconds: HOUR,
    guesses: true,
  });
  const emailsPerAccount = deps.rateLimits.limiter({
    name: 'account-mail-user',
    points: 3,
    durationSeconds: HOUR,
    guesses: true,
  });
  // Re-typed passwords are guesses like any sign-in: the same limits, with their own counters.
  const passwordGuesses = createLoginThrottle(deps.rateLimits, deps.config.loginLimits);

  const limitEmails = async (ctx: Context, key: string, perKey = emailsPerAccount) => {
    await emailsPerAddress.hit(ctx.ip, tooManyEmails);
    await perKey.hit(key, tooManyEmails);
  };

  /** Runs `check` (which verifies a re-typed password) as one counted guess at the account. */
  const guessing = async <T>(ctx: Context, check: () => Promise<T>): Promise<T> => {
    const guess = await passwordGuesses.begin(`user:${ctx.state.user!.id}`, ctx.ip);
    const result = await check();
    await guess.succeeded();
    return result;
  };

  return { signedIn, emailsPerMailbox, limitEmails, guessing };
}

type SecurityGuards = ReturnType<typeof createSecurityGuards>;

const sessionKey = (ctx: Context) => ctx.session?.externalKey;

/**
 * Password reset, e-mail confirmation and change, password change, the customer's sessions, and
 * their data export and account deletion (docs/product.md#account-security).
 */
export function registerSecurityRoutes(router: Router, deps: AppDeps): void {
  const guards = createSecurityGuards(deps);
  registerPasswordAndEmailRoutes(router, deps, guards);
  registerSessionRoutes(router, deps, guards);
  registerAccountDataRoutes(router, deps, guards);
}

/** Password reset and change, e-mail confirmation and change. */
function registerPasswordAndEmailRoutes(
  router: Router,
  deps: AppDeps,
  { signedIn, emailsPerMailbox, limitEmails, guessing }: SecurityGuards,
): void {
  const { logger } = deps;

  serve(router, R.forgotPassword, async ({ body: { email } }, ctx) => {
    await limitEmails(ctx, normaliseMailbox(email), emailsPerMailbox);
    // Answered before the account is even looked up: the same answer, in the same time, either way.
    void sendPasswordReset(deps, email).catch((err) => logger.error({ err }, 'password reset failed'));
    ctx.status = 202;
    return { message: FORGOT_PASSWORD_SENT } satisfies AccountMessageView;
  });

  serve(router, R.resetPassword, async ({ body: { token, password } }, ctx) => {
    const userId = await resetPassword(deps, token, password);
    if (ctx.session?.userId === userId) ctx.session = null; // its row has gone with the others
    return {
      message: 'Your password has been changed. Please sign in with it.',
    } satisfies AccountMessageView;
  });

  serve(router, R.verifyEmail, async ({ body: { token } }, _ctx) => {
    const { user, welcomePence } = await verifyEmail(deps, token);
    return {
      message: 'Thank you: your e-mail address is confirmed.',
      email: user.email,
      welcomeCredit: penceToPounds(welcomePence),
    } satisfies VerifyEmailView;
  });

  serve(router, R.resendVerification, signedIn, async (_, ctx) => {
    const user = ctx.state.user!;
    if (user.emailVerifiedAt === null) await limitEmails(ctx, String(user.id));
    await resendVerification(deps, user);
    return {
      message: `We have sent a new confirmation link to ${user.email}.`,
    } satisfies AccountMessageView;
  });

  serve(router, R.changePassword, signedIn, async ({ body: input }, ctx) => {
    await guessing(ctx, () => changePassword(deps, ctx.state.user!, input, sessionKey(ctx)));
    return { message: 'Your password has been changed. Your other sessions have been signed out.' };
  });

  serve(router, R.changeEmail, signedIn, async ({ body: input }, ctx) => {
    const user = ctx.state.user!;
    await guessing(ctx, () => requestEmailChange(deps, user, input, () => limitEmails(ctx, String(user.id))));
    return {
      message: `We have sent a confirmation link to ${input.email}. Your address changes when you open it.`,
    } satisfies AccountMessageView;
  });
}

/** The customer's sessions: list them, sign one out, or all but this one. */
function registerSessionRoutes(router: Router, deps: AppDeps, { signedIn }: SecurityGuards): void {
  const { db } = deps;

  serve(router, R.sessions, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await listAccountSessions(deps, ctx.state.user!.id, sessionKey(ctx));
  });

  serve(router, R.endSession, signedIn, async ({ params: { id } }, ctx) => {
    const session = (await sessionsOf(db, ctx.state.user!.id)).find((s) => sessionPublicId(s.key) === id);
    if (!session) throw notFound('Session not found');
    await inUnitOfWork(deps, (uow) => endSessions(uow, [session.key], { signOut: true }));
    if (session.key === sessionKey(ctx)) ctx.session = null;
    return { message: 'That session has been signed out.' } satisfies AccountMessageView;
  });

  serve(router, R.endOtherSessions, signedIn, async (_, ctx) => {
    const ended = await endUserSessions(deps, ctx.state.user!.id, { signOut: true, except: sessionKey(ctx) });
    return {
      message:
        ended === 1
          ? '1 other session has been signed out.'
          : `${ended} other sessions have been signed out.`,
      ended,
    };
  });
}

/** The customer's data export and account deletion. */
function registerAccountDataRoutes(
  router: Router,
  deps: AppDeps,
  { signedIn, guessing }: SecurityGuards,
): void {
  serve(router, R.exportAccount, signedIn, async (_, ctx) => {
    const user = ctx.state.user!;
    const data = await exportAccount(deps, user, sessionKey(ctx));
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="my-data-${user.id}.json"`);
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(data, null, 2);
  });

  serve(router, R.deleteAccount, signedIn, async ({ body: { password } }, ctx) => {
    await guessing(ctx, () => deleteOwnAccount(deps, ctx.state.user!, password));
    ctx.session = null;
    return { message: 'Your account has been deleted.' } satisfies AccountMessageView;
  });
}
