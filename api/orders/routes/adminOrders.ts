import type { Router } from '@koa/router';
import { AdminIdParamSchema, OrderListQuerySchema, TicketLookupQuerySchema } from '../../../contract/admin';
import { type AdminLiveEvent, SalesStatsQuerySchema } from '../../../contract/salesStats';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
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
  const idOf = (params: unknown) => parse(AdminIdParamSchema, params).id;

  router.get('/api/admin/dashboard', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await adminStats(db);
  });

  // The dashboard's charts (docs/product.md#admin-charts): aggregated in SQL, UK hours and days.
  router.get('/api/admin/stats/sales', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await salesStats(db, parse(SalesStatsQuerySchema, ctx.query));
  });

  // The live tiles' first figures; `admin:live` pushes every later change.
  router.get('/api/admin/stats/live', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      ...(await liveSalesFigures(db)),
      socketsConnected: metrics.socketsConnected(),
    } satisfies AdminLiveEvent;
  });

  router.get('/api/admin/orders', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const { orders, ...paging } = await listOrders(db, parse(OrderListQuerySchema, ctx.query));
    ctx.body = { orders: orders.map(presentAdminOrder), ...paging };
  });

  router.get('/api/admin/orders/:id', admin, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentAdminOrderDetail(await adminOrderDetail(db, idOf(ctx.params)));
  });

  router.post('/api/admin/orders/:id/cancel', admin, async (ctx) => {
    const id = idOf(ctx.params);
    const result = await cancelOrder({ db, events, logger, gateway, mailer }, actorOf(ctx), id);
    ctx.body = { ...result, order: presentAdminOrderDetail(result.order) };
  });

  router.get('/api/admin/tickets/lookup', admin, async (ctx) => {
    const { competitionId, number } = parse(TicketLookupQuerySchema, ctx.query);
    ctx.body = await lookupTicket(db, competitionId, number);
  });

  router.get('/api/admin/competitions/:id/export-csv', admin, async (ctx) => {
    const { filename, csv } = await exportPurchasesCsv(db, idOf(ctx.params));
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = csv;
  });
}
