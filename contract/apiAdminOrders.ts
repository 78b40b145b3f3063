import type { AdminOrderDetail, OrderListView, TicketLookupResult } from './admin';
import { AdminIdParamSchema, OrderListQuerySchema, TicketLookupQuerySchema } from './admin';
import { route } from './apiRoute';
import { CancelOrderSchema } from './backOffice';
import type { AdminStats } from './checkout';
import { type BulkRefundJobView, CancelCompetitionSchema, JobIdParamSchema } from './minimumSales';
import type { PostalEntryCreated, PostalEntryList, PostalImportResult } from './postal';
import { PostalEntryInputSchema, PostalImportSchema } from './postal';
import type { AdminLiveEvent, SalesStats } from './salesStats';
import { SalesStatsQuerySchema } from './salesStats';

/** The back office's dashboard, sales charts, orders, ticket lookup, purchases CSV and postal entries. */
export const ADMIN_ORDER_ROUTES = {
  dashboard: route<AdminStats>()({ method: 'GET', path: '/api/admin/dashboard' }),
  salesStats: route<SalesStats>()({
    method: 'GET',
    path: '/api/admin/stats/sales',
    query: SalesStatsQuerySchema,
  }),
  liveStats: route<AdminLiveEvent>()({ method: 'GET', path: '/api/admin/stats/live' }),
  adminOrders: route<OrderListView>()({
    method: 'GET',
    path: '/api/admin/orders',
    query: OrderListQuerySchema,
  }),
  adminOrder: route<AdminOrderDetail>()({
    method: 'GET',
    path: '/api/admin/orders/:id',
    params: AdminIdParamSchema,
  }),
  cancelOrder: route<{
    message: string;
    refund: 'none' | 'refunded' | 'pending' | 'credit';
    order: AdminOrderDetail;
  }>()({
    method: 'POST',
    path: '/api/admin/orders/:id/cancel',
    params: AdminIdParamSchema,
    body: CancelOrderSchema,
  }),
  cancelCompetition: route<{ jobId: number }>()({
    method: 'POST',
    path: '/api/admin/competitions/:id/cancel',
    params: AdminIdParamSchema,
    body: CancelCompetitionSchema,
    note: '202: the competition is cancelled and its bulk refund job started.',
  }),
  bulkRefundJob: route<BulkRefundJobView>()({
    method: 'GET',
    path: '/api/admin/jobs/:jobId',
    params: JobIdParamSchema,
  }),
  ticketLookup: route<TicketLookupResult>()({
    method: 'GET',
    path: '/api/admin/tickets/lookup',
    query: TicketLookupQuerySchema,
  }),
  purchasesCsv: route()({
    method: 'GET',
    path: '/api/admin/competitions/:id/export-csv',
    params: AdminIdParamSchema,
    kind: 'file',
    note: 'A CSV download, fetched with apiDownload.',
  }),
  postalEntries: route<PostalEntryList>()({
    method: 'GET',
    path: '/api/admin/competitions/:id/postal-entries',
    params: AdminIdParamSchema,
  }),
  addPostalEntry: route<PostalEntryCreated>()({
    method: 'POST',
    path: '/api/admin/competitions/:id/postal-entries',
    params: AdminIdParamSchema,
    body: PostalEntryInputSchema,
  }),
  importPostalEntries: route<PostalImportResult>()({
    method: 'POST',
    path: '/api/admin/competitions/:id/postal-entries/import',
    params: AdminIdParamSchema,
    body: PostalImportSchema,
  }),
};
