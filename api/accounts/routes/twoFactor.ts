import type { Router } from '@koa/router';
import { TwoFactorNotMeSchema } from '../../../contract/account';
import type { TwoFactorEnabledView } from '../../../contract/auth';
import { TwoFactorPasswordSchema } from '../../../contract/auth';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { undoTwoFactor } from '../security/twoFactorUndo';
import type { TwoFactorService } from '../twoFactor';

/** My Account > Security > Two-factor sign-in (the sign-in step itself is in routes/auth.ts). */
export function registerTwoFactorRoutes(router: Router, deps: AppDeps, twoFactor: TwoFactorService): void {
  const signedIn = requireUser(deps.db);

  router.get('/api/account/2fa', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const user = ctx.state.user!;
    ctx.body = { recoveryCodesLeft: await twoFactor.recoveryCodesLeft(user.id) };
  });

  router.post('/api/account/2fa/setup', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await twoFactor.setup(ctx.state.user!);
  });

  router.post('/api/account/2fa/enable', signedIn, async (ctx) => {
    const { password, code } = parse(TwoFactorPasswordSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    const recoveryCodes = await twoFactor.enable(ctx.state.user!, password, code, ctx.session?.externalKey);
    ctx.body = { recoveryCodes } satisfies TwoFactorEnabledView;
  });

  router.post('/api/account/2fa/disable', signedIn, async (ctx) => {
    const { password, code } = parse(TwoFactorPasswordSchema, ctx.request.body);
    await twoFactor.disable(ctx.state.user!, password, code, ctx.session?.externalKey);
    ctx.body = { ok: true };
  });

  // The "this wasn't me" link of the e-mail sent when it is turned on: no session needed (the
  // owner may have none left); a new password, and it is off, with every session ended.
  router.post('/api/account/2fa/not-me', async (ctx) => {
    const { token, password } = parse(TwoFactorNotMeSchema, ctx.request.body);
    const userId = await undoTwoFactor(deps, token, password);
    if (ctx.session?.userId === userId) ctx.session = null; // its row has gone with the others
    ctx.body = {
      message: 'Two-factor sign-in is off and every session is signed out. Sign in with your new password.',
    };
  });
}
