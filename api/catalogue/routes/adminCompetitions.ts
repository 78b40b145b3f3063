import type { Router } from '@koa/router';
import {
  AdminIdParamSchema,
  CompetitionCreateSchema,
  CompetitionTabQuerySchema,
  CompetitionUpdateSchema,
} from '../../../contract/admin';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import {
  createCompetition,
  deleteCompetition,
  getAdminCompetition,
  listAdminCompetitions,
  updateCompetition,
} from '../adminCompetitions';

/** /admin/competitions: list by tab, detail with its audit trail, create, edit, delete, CSV. */
export function registerAdminCompetitionRoutes(router: Router, { db, events, config }: AppDeps): void {
  const admin = requireAdmin(db);
  const idOf = (params: unknown) => parse(AdminIdParamSchema, params).id;

  router.get('/api/admin/competitions', admin, async (ctx) => {
    const { status } = parse(CompetitionTabQuerySchema, ctx.query);
    ctx.body = await listAdminCompetitions(db, status);
  });

  router.get('/api/admin/competitions/:id', admin, async (ctx) => {
    ctx.body = await getAdminCompetition(db, idOf(ctx.params), config.drawAutoAfterSeconds);
  });

  router.post('/api/admin/competitions', admin, async (ctx) => {
    const input = parse(CompetitionCreateSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await createCompetition({ db, events }, actorOf(ctx), input);
  });

  router.put('/api/admin/competitions/:id', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const input = parse(CompetitionUpdateSchema, ctx.request.body ?? {});
    ctx.body = await updateCompetition({ db, events }, actorOf(ctx), id, input);
  });

  router.delete('/api/admin/competitions/:id', admin, async (ctx) => {
    await deleteCompetition({ db, events }, actorOf(ctx), idOf(ctx.params));
    ctx.body = { success: true, message: 'Competition deleted' };
  });
}
