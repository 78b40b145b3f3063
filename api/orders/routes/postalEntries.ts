import type { Router } from '@koa/router';
import { AdminIdParamSchema } from '../../../contract/admin';
import { PostalEntryInputSchema, PostalImportSchema } from '../../../contract/postal';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
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
  const idOf = (params: unknown) => parse(AdminIdParamSchema, params).id;

  router.get('/api/admin/competitions/:id/postal-entries', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { entries: (await listPostalEntries(db, idOf(ctx.params))).map(presentPostalEntry) };
  });

  router.post('/api/admin/competitions/:id/postal-entries', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const input = parse(PostalEntryInputSchema, ctx.request.body);
    const entry = presentPostalEntry(await addPostalEntry(deps, actorOf(ctx), id, input));
    ctx.status = 201;
    ctx.body = { number: entry.number, entry };
  });

  router.post('/api/admin/competitions/:id/postal-entries/import', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const { csv } = parse(PostalImportSchema, ctx.request.body);
    ctx.body = await importPostalEntries(deps, actorOf(ctx), id, csv);
  });
}
