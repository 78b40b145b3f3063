import type { Router } from '@koa/router';
import { IdParamSchema } from '../../../contract/competitions';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { listAvailableNumbers, listReservedNumbers } from '../numbers';

/** The number picker's public lists of a competition's free and held numbers. */
export function registerNumberRoutes(router: Router, { db }: AppDeps): void {
  const idOf = (params: unknown) => parse(IdParamSchema, params).id;

  router.get('/api/competitions/:id/available-tickets', async (ctx) => {
    ctx.body = await listAvailableNumbers(db, idOf(ctx.params));
  });

  router.get('/api/competitions/:id/reserved-tickets', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listReservedNumbers(db, idOf(ctx.params));
  });
}
