import { AdminIdParamSchema, UserIdParamSchema } from './admin';
import { route } from './apiRoute';
import type { CustomerListView, CustomerNoteView, CustomerView, RefundTarget } from './backOffice';
import {
  CreditAdjustmentSchema,
  CustomerNoteSchema,
  CustomerSearchQuerySchema,
  RefundTicketsSchema,
} from './backOffice';

/** The back office's customer view (search, credit adjustments, notes), refunds of some tickets and CSV exports. */
export const ADMIN_BACK_OFFICE_ROUTES = {
  customers: route<CustomerListView>()({
    method: 'GET',
    path: '/api/admin/customers',
    query: CustomerSearchQuerySchema,
  }),
  customer: route<CustomerView>()({
    method: 'GET',
    path: '/api/admin/customers/:userId',
    params: UserIdParamSchema,
  }),
  adjustCredit: route<CustomerView>()({
    method: 'POST',
    path: '/api/admin/customers/:userId/credit',
    params: UserIdParamSchema,
    body: CreditAdjustmentSchema,
  }),
  addNote: route<CustomerNoteView>()({
    method: 'POST',
    path: '/api/admin/customers/:userId/notes',
    params: UserIdParamSchema,
    body: CustomerNoteSchema,
  }),
  refundTickets: route<{
    message: string;
    refund: 'refunded' | 'pending' | Extract<RefundTarget, 'credit'>;
    amount: number;
    numbers: number[];
  }>()({
    method: 'POST',
    path: '/api/admin/orders/:id/refund-tickets',
    params: AdminIdParamSchema,
    body: RefundTicketsSchema,
  }),
  ordersCsv: route()({
    method: 'GET',
    path: '/api/admin/export/orders.csv',
    kind: 'file',
    note: 'A CSV download of every order, fetched with apiDownload.',
  }),
  liveCompetitionsCsv: route()({
    method: 'GET',
    path: '/api/admin/export/live-competitions.csv',
    kind: 'file',
    note: 'A CSV download of the competitions on sale, fetched with apiDownload.',
  }),
};
