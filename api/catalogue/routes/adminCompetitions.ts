import type { Router } from '@koa/router';
import {
  AdminIdParamSchema,
  CompetitionCreateSchema,
  CompetitionTabQuerySchema,
  CompetitionUpdateSchema,
} from '../../../contract/admin';
import { InstantWinParamsSchema, InstantWinUpdateSchema } from '../../../contract/instantWins';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import {
  createCompetition,
  deleteCompetition,
  listAdminCompetitions,
  updateCompetition,
} from '../adminCompetitions';
import { presentAdminCompetition } from '../adminPresenter';
import { setInstantWinDelivered } from '../instantWins/list';
import { presentAdminInstantWin } from '../instantWins/presenter';

/**
 * /admin/competitions: list by tab, create, edit, delete. Catalogue may not call the domains that
 * build the rest: the detail (with the draw's state) is in draws/routes.ts, the purchases CSV in
 * orders/routes/adminOrders.ts.
 */
export function registerAdminCompetitionRoutes(router: Router, { db, events, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  const idOf = (params: unknown) => parse(AdminIdParamSchema, params).id;

  router.get('/api/admin/competitions', admin, async (ctx) => {
    const { status } = parse(CompetitionTabQuerySchema, ctx.query);
    ctx.body = (await listAdminCompetitions(db, status)).map(presentAdminCompetition);
  });

  router.post('/api/admin/competitions', admin, async (ctx) => {
    const input = parse(CompetitionCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = presentAdminCompetition(await createCompetition({ db, events }, actorOf(ctx), input));
  });

  router.put('/api/admin/competitions/:id', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const input = parse(CompetitionUpdateSchema, ctx.request.body ?? {});
    ctx.body = presentAdminCompetition(await updateCompetition({ db, events }, actorOf(ctx), id, input));
  });

  // A won physical instant-win prize delivered (or not), as main winners are (docs/draws.md#instant-wins).
  router.patch('/api/admin/competitions/:id/instant-wins/:prizeId', admin, async (ctx) => {
    const { id, prizeId } = parse(InstantWinParamsSchema, ctx.params);
    const { delivered } = parse(InstantWinUpdateSchema, ctx.request.body ?? {});
    ctx.body = presentAdminInstantWin(await setInstantWinDelivered(db, actorOf(ctx), id, prizeId, delivered));
  });

  router.delete('/api/admin/competitions/:id', admin, async (ctx) => {
    await deleteCompetition({ db, events }, actorOf(ctx), idOf(ctx.params));
    ctx.body = { success: true, message: 'Competition deleted' };
  });
}
