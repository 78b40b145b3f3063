import type { Knex } from 'knex';
import type { OrderListQuery, OrderListView } from '../../contract/admin';
import { pageInfo } from '../../contract/paging';
import { containsPattern } from '../../db/dialect';
import { Order, User } from '../../db/models';
import { auditTrail } from '../platform/auditLog';
import { notFound } from '../platform/errors';
import { loadOrder } from './orders';
import type { AdminOrderRecord, OrderWithItems } from './presenter';

// The admin's order list and detail (docs/product.md#admin-orders).

/** 'ORD-0000000012', '#12' or '12' -> 12; anything else undefined. */
export function orderIdFromSearch(search: string): number | undefined {
  const m = /^(?:ORD-?|#)?0*(\d{1,10})$/i.exec(search.trim());
  const id = m ? Number(m[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** Newest first, filtered by status and by an order number or the customer's e-mail/username. */
export async function listOrders(
  db: Knex,
  query: OrderListQuery,
): Promise<Omit<OrderListView, 'orders'> & { orders: OrderWithItems[] }> {
  const filtered = () => {
    const q = Order.query(db);
    if (query.status) q.where('orders.status', query.status);
    const search = query.search?.trim();
    if (search) {
      const id = orderIdFromSearch(search);
      if (id !== undefined) q.where('orders.id', id);
      else {
        const pattern = containsPattern(search);
        q.whereIn(
          'orders.userId',
          User.query(db)
            .whereRaw("lower(email) like ? escape '!'", [pattern])
            .orWhereRaw("lower(username) like ? escape '!'", [pattern])
            .select('id'),
        );
      }
    }
    return q;
  };
  const total = await filtered().resultSize();
  const orders = (await filtered()
    .withGraphFetched('[items.competition, user]')
    .orderBy('orders.id', 'desc')
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)) as OrderWithItems[];
  return { orders, ...pageInfo(total, query.page, query.pageSize) };
}

export async function adminOrderDetail(db: Knex, orderId: number): Promise<AdminOrderRecord> {
  const order = await loadOrder(db, orderId, true);
  if (!order) throw notFound('Order not found');
  return { order, auditLog: await auditTrail(db, 'order', orderId) };
}
