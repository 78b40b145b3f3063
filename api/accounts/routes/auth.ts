import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { SignInView } from '../../../contract/auth';
import { LoginSchema, RegisterSchema } from '../../../contract/auth';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { unauthenticated } from '../../platform/errors';
import { ensureGuestId, newToken } from '../../platform/sessions';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { createLoginThrottle, createRegistrationLimit } from '../accountLimits';
import { capReleaseNotice, claimGuestCart, findSignInUser, passwordMatches, registerUser } from '../auth';
import { presentUser } from '../presenter';
import { sendVerification } from '../security/emailVerification';
import { endSessions } from '../userSessions';

const INVALID_LOGIN = 'Invalid username or password';

export function registerAuthRoutes(router: Router, deps: AppDeps): void {
  const { db } = deps;
  const loginThrottle = createLoginThrottle(deps.rateLimits, deps.config.loginLimits);
  const registrationLimit = createRegistrationLimit(deps.rateLimits, deps.config.registrationLimits);

  /**
   * Signs the user in on a brand-new session: the old session key is destroyed (a cookie captured
   * before login is worthless), the CSRF token is renewed, and the guest id carries over so the
   * visitor's cart follows them. Sockets of the old session are told to re-authenticate.
   */
  async function signIn(ctx: Context, userId: number): Promise<string[]> {
    const session = ctx.session!;
    const oldKey = session.externalKey;
    const guestId = ensureGuestId(session);
    session.userId = userId;
    session.csrfToken = newToken();
    await session.regenerate();
    const releases = await inUnitOfWork(deps, async (uow) => {
      const released = await claimGuestCart(uow, guestId, userId);
      if (oldKey) uow.emit('session.ended', { sessionKey: oldKey });
      return released;
    });
    return releases.map(capReleaseNotice);
  }

  /** The user, with any notices of the sign-in (only when there are some). */
  const signedInView = (user: Parameters<typeof presentUser>[0], notices: string[]): SignInView =>
    notices.length ? { ...presentUser(user), notices } : presentUser(user);

  router.post('/api/register', async (ctx) => {
    // guestSessionId in the body is not trusted: the guest is whoever owns this session.
    const input = parse(RegisterSchema, ctx.request.body);
    const user = await registrationLimit.guard(ctx.ip, () => registerUser(db, input));
    const notices = await signIn(ctx, user.id);
    // The account exists either way; a lost link can be sent again from the banner.
    await sendVerification(deps, user).catch((err) =>
      deps.logger.error({ err }, 'confirmation link not sent'),
    );
    ctx.status = 201;
    ctx.body = signedInView(user, notices);
  });

  router.post('/api/login', async (ctx) => {
    const input = parse(LoginSchema, ctx.request.body);
    const user = await findSignInUser(db, input.username);
    // Keyed by the account, so its username and its e-mail share one budget; unknown names by
    // what was typed.
    const account = user ? `user:${user.id}` : `name:${input.username.trim().toLowerCase()}`;
    const guess = await loginThrottle.begin(account, ctx.ip);
    const ok = await passwordMatches(user, input.password);
    if (!user || !ok) throw unauthenticated(INVALID_LOGIN);
    await guess.succeeded();
    const notices = await signIn(ctx, user.id);
    ctx.body = signedInView(user, notices);
  });

  router.post('/api/logout', async (ctx) => {
    const key = ctx.session?.externalKey;
    // Deleted now, so a socket reconnecting at once is a guest; its sockets are told after COMMIT.
    if (key) await inUnitOfWork(deps, (uow) => endSessions(uow, [key], { signOut: true }));
    ctx.session = null;
    ctx.body = { ok: true };
  });

  router.get('/api/user', requireUser(db, 'Not signed in'), (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentUser(ctx.state.user!);
  });
}
