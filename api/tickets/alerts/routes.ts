import type { Router } from '@koa/router';
import { TICKET_ROUTES as R } from '../../../contract/apiTickets';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { cartOwnerOf } from '../routes';
import { askForNumberAlerts } from './numberAlerts';

/** `POST /api/competitions/:id/number-alerts` (docs/product.md#number-alerts). */
export function registerNumberAlertRoutes(router: Router, { db, rateLimits }: AppDeps): void {
  // A visitor asks a handful of times; a script probing the grid many (docs/security.md).
  const perSession = rateLimits.limiter({ name: 'number-alerts', points: 20, durationSeconds: 600 });
  serve(router, R.numberAlerts, async ({ params: { id }, body: { numbers } }, ctx) => {
    const owner = cartOwnerOf(ctx);
    await perSession.hit(
      owner.guestId,
      (seconds) => `You have asked about numbers too often. Please wait ${seconds} seconds and try again.`,
    );
    const view = await askForNumberAlerts(db, owner, id, numbers, Date.now());
    ctx.status = 201;
    return view;
  });
}
