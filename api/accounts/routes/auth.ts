import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { AUTH_ROUTES as AUTH } from '../../../contract/apiAuth';
import type { SessionView, SignInView, TwoFactorChallenge } from '../../../contract/auth';
import { iso } from '../../../contract/dates';
import { keepPassesTheAccountAllows } from '../../catalogue/skill/attempts';
import { currentUser, requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { badRequest, unauthenticated } from '../../platform/errors';
import { ensureGuestId, newToken } from '../../platform/sessions';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { createLoginThrottle, createRegistrationLimit } from '../accountLimits';
import {
  capReleaseNotice,
  claimGuestCart,
  findLiveUser,
  findSignInUser,
  passwordMatches,
  registerUser,
} from '../auth';
import { presentUser } from '../presenter';
import { grantStandingPromos } from '../promoCodes';
import { applyRegisterToAccount, mailboxKeyer } from '../protection/exclusionRegister';
import { sendVerification } from '../security/emailVerification';
import { createTwoFactor, hasTwoFactor, twoFactorStatus, WRONG_CODE } from '../twoFactor';
import { endSessions } from '../userSessions';
import { registerTwoFactorRoutes } from './twoFactor';

/** What a sign-in tells the customer besides who they are. */
interface SignedIn {
  notices: string[];
  selfExcludedUntil: string | null;
}

const INVALID_LOGIN = 'Invalid username or password';
/** How long the code step may take after the password was accepted. */
const CODE_STEP_MS = 5 * 60 * 1000;
const CODE_STEP_EXPIRED = 'Your sign-in has timed out. Please enter your username and password again.';

/**
 * Signs the user in on a brand-new session: the old session key is destroyed (a cookie captured
 * before login is worthless), the CSRF token is renewed, and the guest id carries over so the
 * visitor's cart follows them, with the guest's skill passes the account's own attempts allow. Sockets of the old session are told to re-authenticate.
 */
async function signIn(deps: AppDeps, ctx: Context, userId: number): Promise<SignedIn> {
  const { db } = deps;
  const session = ctx.session!;
  const oldKey = session.externalKey;
  const guestId = ensureGuestId(session);
  await keepPassesTheAccountAllows(db, session, userId, deps.config.skillMaxAttempts);
  session.userId = userId;
  delete session.twoFactorPending;
  session.csrfToken = newToken();
  await session.regenerate();
  const { releases, onBreakUntil } = await inUnitOfWork(deps, async (uow) => {
    // A break on the register for this mailbox becomes the account's own before the cart
    // claim, which then lets the guest's holds go.
    const until = await applyRegisterToAccount(uow.trx, userId, Date.now());
    const released = await claimGuestCart(uow, guestId, userId);
    if (oldKey) uow.emit('session.ended', { sessionKey: oldKey });
    return { releases: released, onBreakUntil: until };
  });
  // Its own transaction: it locks the user row, which the cart claim above need not wait for.
  // No credit offers reach someone taking a break.
  if (onBreakUntil === null) await inUnitOfWork(deps, ({ trx }) => grantStandingPromos(trx, userId));
  return {
    notices: releases.map(capReleaseNotice),
    selfExcludedUntil: onBreakUntil === null ? null : iso(onBreakUntil),
  };
}

export function registerAuthRoutes(router: Router, deps: AppDeps): void {
  const { db } = deps;
  const loginThrottle = createLoginThrottle(deps.rateLimits, deps.config.loginLimits);
  const registrationLimit = createRegistrationLimit(deps.rateLimits, deps.config.registrationLimits);
  const twoFactor = createTwoFactor(deps);
  const keyOf = mailboxKeyer(deps.config.exclusionKey);
  registerTwoFactorRoutes(router, deps, twoFactor);

  const presentWithTwoFactor = async (user: Parameters<typeof presentUser>[0]) =>
    presentUser(user, await twoFactorStatus(deps, user));

  /** The user, with any notices of the sign-in and the break it is on (only when there are some). */
  const signedInView = async (
    user: Parameters<typeof presentUser>[0],
    { notices, selfExcludedUntil }: SignedIn,
  ): Promise<SignInView> => {
    // Read again: signing in may have granted promo credit.
    const fresh = (await findLiveUser(db, user.id)) ?? user;
    const view: SignInView = await presentWithTwoFactor(fresh);
    if (notices.length) view.notices = notices;
    if (selfExcludedUntil) view.selfExcludedUntil = selfExcludedUntil;
    return view;
  };

  serve(router, AUTH.register, async ({ body: input }, ctx) => {
    // guestSessionId in the body is not trusted: the guest is whoever owns this session.
    const user = await registrationLimit.guard(ctx.ip, () => registerUser(db, input, keyOf));
    const signedIn = await signIn(deps, ctx, user.id);
    // The account exists either way; a lost link can be sent again from the banner.
    await sendVerification(deps, user).catch((err) =>
      deps.logger.error({ err }, 'confirmation link not sent'),
    );
    ctx.status = 201;
    return await signedInView(user, signedIn);
  });

  serve(router, AUTH.login, async ({ body: input }, ctx) => {
    const user = await findSignInUser(db, input.username);
    // Keyed by the account, so its username and its e-mail share one budget; unknown names by
    // what was typed.
    const account = user ? `user:${user.id}` : `name:${input.username.trim().toLowerCase()}`;
    const guess = await loginThrottle.begin(account, ctx.ip);
    const ok = await passwordMatches(user, input.password);
    if (!user || !ok) throw unauthenticated(INVALID_LOGIN);
    await guess.succeeded();
    if (await hasTwoFactor(db, user.id)) {
      // Nothing is granted yet: the session only remembers whose code to expect next.
      ctx.session!.twoFactorPending = { userId: user.id, expiresAt: Date.now() + CODE_STEP_MS };
      return { twoFactorRequired: true } satisfies TwoFactorChallenge;
    }
    const signedIn = await signIn(deps, ctx, user.id);
    return await signedInView(user, signedIn);
  });

  serve(router, AUTH.loginTwoFactor, async ({ body: { code } }, ctx) => {
    const pending = ctx.session!.twoFactorPending;
    const user =
      pending && pending.expiresAt > Date.now() ? await findLiveUser(db, pending.userId) : undefined;
    if (!user) {
      delete ctx.session!.twoFactorPending;
      throw unauthenticated(CODE_STEP_EXPIRED);
    }
    if (!(await twoFactor.verifySignIn(user.id, code))) throw badRequest(WRONG_CODE);
    const signedIn = await signIn(deps, ctx, user.id);
    return await signedInView(user, signedIn);
  });

  serve(router, AUTH.logout, async (_, ctx) => {
    const key = ctx.session?.externalKey;
    // Deleted now, so a socket reconnecting at once is a guest; its sockets are told after COMMIT.
    if (key) await inUnitOfWork(deps, (uow) => endSessions(uow, [key], { signOut: true }));
    ctx.session = null;
    return { ok: true };
  });

  serve(router, AUTH.user, requireUser(db, 'Not signed in'), async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await presentWithTwoFactor(ctx.state.user!);
  });

  // The client's session check: 200 whether or not anyone is signed in, so a visitor's browser
  // logs no failed request on every page (GET /api/user keeps the spec's 401).
  serve(router, AUTH.session, async (_, ctx) => {
    const user = await currentUser(db, ctx);
    ctx.set('Cache-Control', 'no-store');
    return { user: user ? await presentWithTwoFactor(user) : null } satisfies SessionView;
  });
}
