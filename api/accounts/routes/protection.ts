import type { Router } from '@koa/router';
import { UserIdParamSchema } from '../../../contract/admin';
import {
  HarmReviewSchema,
  HarmThresholdsSchema,
  SelfExclusionSchema,
  SpendLimitSchema,
} from '../../../contract/protection';
import { actorOf } from '../../http/adminActor';
import { requireAdmin, requireUser } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { mailboxKeyer } from '../protection/exclusionRegister';
import { addHarmReview, harmReport, setHarmThresholds } from '../protection/harmReport';
import { readSelfExclusion, startSelfExclusion } from '../protection/selfExclusion';
import { readSpendLimits, setSpendLimit } from '../protection/spendLimits';

/** Player protection: the customer's spend limit and break, and the admin's harm report. */
export function registerProtectionRoutes(router: Router, deps: AppDeps): void {
  const { db, events, config } = deps;
  const signedIn = requireUser(db);
  const keyOf = mailboxKeyer(config.exclusionKey);
  const admin = requireAdmin({ db, config });

  router.get('/api/account/limits', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readSpendLimits(db, ctx.state.user!.id);
  });

  router.put('/api/account/limits', signedIn, async (ctx) => {
    const { monthlySpendLimitPence } = parse(SpendLimitSchema, ctx.request.body ?? {});
    ctx.body = await setSpendLimit(db, ctx.state.user!.id, monthlySpendLimitPence);
  });

  router.get('/api/account/self-exclusion', signedIn, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readSelfExclusion(db, ctx.state.user!.id);
  });

  router.post('/api/account/self-exclusion', signedIn, async (ctx) => {
    const { period } = parse(SelfExclusionSchema, ctx.request.body ?? {});
    ctx.body = await startSelfExclusion({ db, events }, keyOf, ctx.state.user!.id, period);
  });

  router.get('/api/admin/harm-report', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await harmReport(db);
  });

  router.put('/api/admin/harm-report/thresholds', admin, async (ctx) => {
    const input = parse(HarmThresholdsSchema, ctx.request.body ?? {});
    ctx.body = await setHarmThresholds(db, actorOf(ctx), input);
  });

  router.post('/api/admin/harm-report/:userId/reviews', admin, async (ctx) => {
    const { userId } = parse(UserIdParamSchema, ctx.params);
    const input = parse(HarmReviewSchema, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await addHarmReview(db, actorOf(ctx), userId, input);
  });
}
