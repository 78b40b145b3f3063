import type { Router } from '@koa/router';
import { ADMIN_CATALOGUE_ROUTES as A } from '../../../contract/apiAdminCatalogue';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import {
  competitionsWithSales,
  createCompetition,
  deleteCompetition,
  listAdminCompetitions,
  updateCompetition,
} from '../adminCompetitions';
import { presentAdminCompetition } from '../adminPresenter';
import { setInstantWinDelivered } from '../instantWins/list';
import { presentAdminInstantWin } from '../instantWins/presenter';
import { duplicateCompetition } from '../launch/duplicate';

/**
 * /admin/competitions: list by tab, create, edit, delete. Catalogue may not call the domains that
 * build the rest: the detail (with the draw's state) is in draws/routes.ts, the purchases CSV in
 * orders/routes/adminOrders.ts.
 */
export function registerAdminCompetitionRoutes(router: Router, { db, events, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });

  serve(router, A.adminCompetitions, admin, async ({ query: { status } }, _ctx) => {
    const sold = await competitionsWithSales(db);
    // Delete is offered only where it would not be refused (deleteCompetition's rule).
    return (await listAdminCompetitions(db, status)).map((c) => ({
      ...presentAdminCompetition(c),
      hasSales: c.ticketsSold > 0 || sold.has(c.id),
    }));
  });

  serve(router, A.createCompetition, admin, async ({ body: input }, ctx) => {
    ctx.status = 201;
    return presentAdminCompetition(await createCompetition({ db, events }, actorOf(ctx), input));
  });

  serve(router, A.updateCompetition, admin, async ({ params: { id }, body }, ctx) => {
    return presentAdminCompetition(await updateCompetition({ db, events }, actorOf(ctx), id, body));
  });

  serve(router, A.duplicateCompetition, admin, async ({ params: { id } }, ctx) => {
    ctx.status = 201;
    return { id: await duplicateCompetition({ db, events }, actorOf(ctx), id) };
  });

  // A won physical instant-win prize delivered (or not), as main winners are (docs/draws.md#instant-wins).
  serve(
    router,
    A.setInstantWinDelivered,
    admin,
    async ({ params: { id, prizeId }, body: { delivered } }, ctx) => {
      return presentAdminInstantWin(await setInstantWinDelivered(db, actorOf(ctx), id, prizeId, delivered));
    },
  );

  serve(router, A.deleteCompetition, admin, async (input, ctx) => {
    await deleteCompetition({ db, events }, actorOf(ctx), input.params.id);
    return { success: true, message: 'Competition deleted' };
  });
}
