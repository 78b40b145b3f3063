import type { Router } from '@koa/router';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import type { TwoFactorEnabledView } from '../../../contract/auth';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import type { TwoFactorService } from '../twoFactor';

/** My Account > Security > Two-factor sign-in (the sign-in step itself is in routes/auth.ts). */
export function registerTwoFactorRoutes(router: Router, { db }: AppDeps, twoFactor: TwoFactorService): void {
  const signedIn = requireUser(db);

  serve(router, R.twoFactor, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const user = ctx.state.user!;
    return { recoveryCodesLeft: await twoFactor.recoveryCodesLeft(user.id) };
  });

  serve(router, R.twoFactorSetup, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await twoFactor.setup(ctx.state.user!);
  });

  serve(router, R.twoFactorEnable, signedIn, async ({ body: { code } }, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const recoveryCodes = await twoFactor.enable(ctx.state.user!, code, ctx.session?.externalKey);
    return { recoveryCodes } satisfies TwoFactorEnabledView;
  });

  serve(router, R.twoFactorDisable, signedIn, async ({ body: { password, code } }, ctx) => {
    await twoFactor.disable(ctx.state.user!, password, code, ctx.session?.externalKey);
    return { ok: true };
  });
}
