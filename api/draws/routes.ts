import type { Router } from '@koa/router';
import { AdminIdParamSchema } from '../../contract/admin';
import { IdParamSchema } from '../../contract/competitions';
import { WinnerUpdateSchema } from '../../contract/draw';
import { actorOf } from '../http/adminActor';
import { requireAdmin } from '../http/auth';
import { parse } from '../http/validate';
import type { AppDeps } from '../platform/context';
import { type DrawDeps, drawCompetition, drawEntries } from './draws';
import { listAdminWinners, listWinners, setPrizeDelivered } from './winners';

/** Draws and winners (docs/draws.md): public results and entries, the admin's Draw now and winners. */
export function registerDrawRoutes(router: Router, { db, events, logger, config, mailer }: AppDeps): void {
  const deps: DrawDeps = { db, events, logger, mailer, siteName: config.siteName };
  const admin = requireAdmin(db);

  router.get('/api/competitions/:id/draw-entries', async (ctx) => {
    ctx.body = await drawEntries(db, parse(IdParamSchema, ctx.params).id);
  });

  router.get('/api/winners', async (ctx) => {
    ctx.body = await listWinners(db);
  });

  router.post('/api/admin/competitions/:id/draw', admin, async (ctx) => {
    const id = parse(AdminIdParamSchema, ctx.params).id;
    ctx.body = await drawCompetition(deps, id, { kind: 'admin', actor: actorOf(ctx) });
  });

  router.get('/api/admin/winners', admin, async (ctx) => {
    ctx.body = await listAdminWinners(db);
  });

  router.patch('/api/admin/winners/:id', admin, async (ctx) => {
    const id = parse(AdminIdParamSchema, ctx.params).id;
    const { prizeDelivered } = parse(WinnerUpdateSchema, ctx.request.body ?? {});
    ctx.body = await setPrizeDelivered(db, actorOf(ctx), id, prizeDelivered);
  });
}
