import type { Router } from '@koa/router';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import type { TwoFactorEnabledView } from '../../../contract/auth';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { undoTwoFactor } from '../security/twoFactorUndo';
import type { TwoFactorService } from '../twoFactor';

/** My Account > Security > Two-factor sign-in (the sign-in step itself is in routes/auth.ts). */
export function registerTwoFactorRoutes(router: Router, deps: AppDeps, twoFactor: TwoFactorService): void {
  const signedIn = requireUser(deps.db);

  serve(router, R.twoFactor, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const user = ctx.state.user!;
    return { recoveryCodesLeft: await twoFactor.recoveryCodesLeft(user.id) };
  });

  serve(router, R.twoFactorSetup, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await twoFactor.setup(ctx.state.user!);
  });

  serve(router, R.twoFactorEnable, signedIn, async ({ body: { password, code } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const recoveryCodes = await twoFactor.enable(ctx.state.user!, password, code, ctx.session?.externalKey);
    return { recoveryCodes } satisfies TwoFactorEnabledView;
  });

  serve(router, R.twoFactorDisable, signedIn, async ({ body: { password, code } }, ctx) => {
    await twoFactor.disable(ctx.state.user!, password, code, ctx.session?.externalKey);
    return { ok: true };
  });

  // The "this wasn't me" link of the e-mail sent when it is turned on: no session needed (the
  // owner may have none left); a new password, and it is off, with every session ended.
  serve(router, R.twoFactorNotMe, async ({ body: { token, password } }, ctx) => {
    const userId = await undoTwoFactor(deps, token, password);
    if (ctx.session?.userId === userId) ctx.session = null; // its row has gone with the others
    return {
      message: 'Two-factor sign-in is off and every session is signed out. Sign in with your new password.',
    };
  });
}
