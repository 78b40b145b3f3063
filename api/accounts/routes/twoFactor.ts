import type { Router } from '@koa/router';
import type { TwoFactorEnabledView } from '../../../contract/auth';
import { TwoFactorCodeSchema, TwoFactorDisableSchema } from '../../../contract/auth';
import { requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import type { TwoFactorService } from '../twoFactor';

/** My Account > Security > Two-factor sign-in (the sign-in step itself is in routes/auth.ts). */
export function registerTwoFactorRoutes(router: Router, { db }: AppDeps, twoFactor: TwoFactorService): void {
  const signedIn = requireUser(db);

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
    const { code } = parse(TwoFactorCodeSchema, ctx.request.body);
    ctx.set('Cache-Control', 'no-store');
    const recoveryCodes = await twoFactor.enable(ctx.state.user!, code, ctx.session?.externalKey);
    ctx.body = { recoveryCodes } satisfies TwoFactorEnabledView;
  });

  router.post('/api/account/2fa/disable', signedIn, async (ctx) => {
    const { password, code } = parse(TwoFactorDisableSchema, ctx.request.body);
    await twoFactor.disable(ctx.state.user!, password, code, ctx.session?.externalKey);
    ctx.body = { ok: true };
  });
}
