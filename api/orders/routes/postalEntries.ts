import type { Router } from '@koa/router';
import { ADMIN_ORDER_ROUTES as A } from '../../../contract/apiAdminOrders';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { addPostalEntry, listPostalEntries } from '../postal/postalEntries';
import { importPostalEntries } from '../postal/postalImport';
import { presentPostalEntry } from '../postal/presenter';

/** A competition's free postal entries: list, add one, import a day's post as CSV (admins only). */
export function registerPostalEntryRoutes(
  router: Router,
  { db, events, logger, mailer, config, drawBeacon }: AppDeps,
): void {
  const admin = requireAdmin({ db, config });
  const deps = { db, events, logger, mailer, beacon: drawBeacon, config };

  serve(router, A.postalEntries, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return { entries: (await listPostalEntries(db, input.params.id)).map(presentPostalEntry) };
  });

  serve(router, A.addPostalEntry, admin, async ({ params: { id }, body }, ctx) => {
    const entry = presentPostalEntry(await addPostalEntry(deps, actorOf(ctx), id, body));
    ctx.status = 201;
    return { number: entry.number, entry };
  });

  serve(router, A.importPostalEntries, admin, async ({ params: { id }, body: { csv } }, ctx) => {
    return await importPostalEntries(deps, actorOf(ctx), id, csv);
  });
}
