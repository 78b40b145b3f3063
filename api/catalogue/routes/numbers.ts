import type { Router } from '@koa/router';
import { CATALOGUE_ROUTES as R } from '../../../contract/apiCatalogue';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { listAvailableNumbers, listReservedNumbers } from '../numbers';

/** The number picker's public lists of a competition's free and held numbers. */
export function registerNumberRoutes(router: Router, { db }: AppDeps): void {
  serve(router, R.availableNumbers, async (input, _ctx) => {
    return await listAvailableNumbers(db, input.params.id);
  });

  serve(router, R.reservedNumbers, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await listReservedNumbers(db, input.params.id);
  });
}
