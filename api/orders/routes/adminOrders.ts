import type { Router } from '@koa/router';
import { ADMIN_ORDER_ROUTES as A } from '../../../contract/apiAdminOrders';
import type { AdminLiveEvent } from '../../../contract/salesStats';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { PaymentGateway } from '../../payments';
import type { AppDeps } from '../../platform/context';
import { lookupTicket } from '../../tickets/history/ticketLookup';
import { adminOrderDetail, listOrders } from '../adminOrders';
import { cancelOrder } from '../cancellation';
import { adminStats } from '../orders';
import { presentAdminOrder, presentAdminOrderDetail } from '../presenter';
import { exportPurchasesCsv } from '../purchaseExport';
import { liveSalesFigures, salesStats } from '../salesStats';

/** The dashboard counts and sales charts, /admin/orders, /admin/ticket-lookup and a competition's purchases CSV. */
export function registerAdminOrderRoutes(
  router: Router,
  { db, events, logger, mailer, config, metrics }: AppDeps,
  gateway: PaymentGateway,
): void {
  const admin = requireAdmin({ db, config });

  serve(router, A.dashboard, admin, async (_input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await adminStats(db);
  });

  // The dashboard's charts (docs/product.md#admin-charts): aggregated in SQL, UK hours and days.
  serve(router, A.salesStats, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await salesStats(db, input.query);
  });

  // The live tiles' first figures; `admin:live` pushes every later change.
  serve(router, A.liveStats, admin, async (_input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return {
      ...(await liveSalesFigures(db)),
      socketsConnected: metrics.socketsConnected(),
    } satisfies AdminLiveEvent;
  });

  serve(router, A.adminOrders, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { orders, ...paging } = await listOrders(db, input.query);
    return { orders: orders.map(presentAdminOrder), ...paging };
  });

  serve(router, A.adminOrder, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return presentAdminOrderDetail(await adminOrderDetail(db, input.params.id));
  });

  serve(router, A.cancelOrder, admin, async (input, ctx) => {
    const id = input.params.id;
    const result = await cancelOrder({ db, events, logger, gateway, mailer }, actorOf(ctx), id, input.body);
    return { ...result, order: presentAdminOrderDetail(result.order) };
  });

  serve(router, A.ticketLookup, admin, async ({ query: { competitionId, number } }, _ctx) => {
    return await lookupTicket(db, competitionId, number);
  });

  serve(router, A.purchasesCsv, admin, async (input, ctx) => {
    const { filename, csv } = await exportPurchasesCsv(db, input.params.id);
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = csv;
  });
}
