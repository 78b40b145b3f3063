import type { Router } from '@koa/router';
import {
  AdminIdParamSchema,
  PromoCreateSchema,
  PromoListQuerySchema,
  PromoUpdateSchema,
} from '../../../contract/admin';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { presentPromo } from '../presenter';
import { createPromo, deletePromo, listPromos, resetAllCredits, updatePromo } from '../promos';

/** /admin/promos: Active and All tabs, create, edit, delete, Reset All Credits. */
export function registerAdminPromoRoutes(router: Router, { db, events, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  const idOf = (params: unknown) => parse(AdminIdParamSchema, params).id;

  router.get('/api/admin/promos', admin, async (ctx) => {
    const { active } = parse(PromoListQuerySchema, ctx.query);
    ctx.body = (await listPromos(db, active === 'true' || active === '1')).map(presentPromo);
  });

  router.post('/api/admin/promos', admin, async (ctx) => {
    const input = parse(PromoCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentPromo(await createPromo({ db, events }, actorOf(ctx), input));
  });

  router.put('/api/admin/promos/:id', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const input = parse(PromoUpdateSchema, ctx.request.body ?? {});
    ctx.body = presentPromo(await updatePromo({ db, events }, actorOf(ctx), id, input));
  });

  router.delete('/api/admin/promos/:id', admin, async (ctx) => {
    const result = await deletePromo({ db, events }, actorOf(ctx), idOf(ctx.params));
    ctx.body = { success: true, message: 'Promo deleted successfully', ...result };
  });

  router.post('/api/admin/reset-all-credits', admin, async (ctx) => {
    ctx.body = await resetAllCredits({ db, events }, actorOf(ctx));
  });
}
