import type { Router } from '@koa/router';
import { ACCOUNT_ROUTES as R } from '../../../contract/apiAccounts';
import { ADMIN_ACCOUNT_ROUTES as A } from '../../../contract/apiAdminAccounts';
import { actorOf } from '../../http/adminActor';
import { requireAdmin, requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { mailboxKeyer } from '../protection/exclusionRegister';
import { addHarmReview, harmReport, setHarmThresholds } from '../protection/harmReport';
import { readPlayState } from '../protection/playState';
import { readSelfExclusion, startSelfExclusion } from '../protection/selfExclusion';
import { readSpendLimits, setSpendLimit } from '../protection/spendLimits';

/** Player protection: the customer's spend limit, break and what they stop now, and the admin's harm report. */
export function registerProtectionRoutes(router: Router, deps: AppDeps): void {
  const { db, events, config } = deps;
  const signedIn = requireUser(db);
  const keyOf = mailboxKeyer(config.exclusionKey);
  const admin = requireAdmin({ db, config });

  serve(router, R.spendLimits, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await readSpendLimits(db, ctx.state.user!.id);
  });

  serve(router, R.setSpendLimit, signedIn, async ({ body: { monthlySpendLimitPence } }, ctx) => {
    return await setSpendLimit(db, ctx.state.user!.id, monthlySpendLimitPence);
  });

  serve(router, R.selfExclusion, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await readSelfExclusion(db, ctx.state.user!.id);
  });

  serve(router, R.playState, signedIn, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await readPlayState(db, ctx.state.user!.id);
  });

  serve(router, R.startSelfExclusion, signedIn, async ({ body: { period } }, ctx) => {
    return await startSelfExclusion({ db, events }, keyOf, ctx.state.user!.id, period);
  });

  serve(router, A.harmReport, admin, async (_, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await harmReport(db);
  });

  serve(router, A.setHarmThresholds, admin, async ({ body: input }, ctx) => {
    return await setHarmThresholds(db, actorOf(ctx), input);
  });

  serve(router, A.addHarmReview, admin, async ({ params: { userId }, body: input }, ctx) => {
    ctx.status = 201;
    return await addHarmReview(db, actorOf(ctx), userId, input);
  });
}
