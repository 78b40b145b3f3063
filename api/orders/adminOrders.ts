import type { Knex } from 'knex';
import type { OrderListQuery, OrderListView } from '../../contract/admin';
import { pageInfo } from '../../contract/paging';
import { containsPattern } from '../../db/dialect';
import { Order, User } from '../../db/models';
import { auditTrail } from '../platform/auditLog';
import { notFound } from '../platform/errors';
import { loadOrder } from './orders';
import { postalOrdersMatching, withPostalEntrants } from './postal/postalEntrants';
import type { AdminOrderRecord, OrderWithItems } from './presenter';

// The admin's order list and detail (docs/product.md#admin-orders).

/** 'ORD-0000000012', '#12' or '12' -> 12; anything else undefined. */
export function orderIdFromSearch(search: string): number | undefined {
  const m = /^(?:ORD-?|#)?0*(\d{1,10})$/i.exec(search.trim());
  const id = m ? Number(m[1]) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Newest first, filtered by status and by an order number, the customer's e-mail/username or a
 * postcard's name/e-mail.
 */
export async function listOrders(
  db: Knex,
  query: OrderListQuery,
): Promise<Omit<OrderListView, 'orders'> & { orders: OrderWithItems[] }> {
  const search = query.search?.trim();
  const id = search ? orderIdFromSearch(search) : undefined;
  const pattern = search ? containsPattern(search) : '';
  const postalIds = search && id === undefined ? await postalOrdersMatching(db, pattern) : [];
  const filtered = () => {
    const q = Order.query(db);
    if (query.status) q.where('orders.status', query.status);
    if (search) {
      if (id !== undefined) q.where('orders.id', id);
      else {
        // The customer's account, or a postcard's name or e-mail.
        q.where((w) =>
          w
            .whereIn(
              'orders.userId',
              User.query(db)
                .whereRaw("lower(email) like ? escape '!'", [pattern])
                .orWhereRaw("lower(username) like ? escape '!'", [pattern])
                .select('id'),
            )
            .orWhereIn('orders.id', postalIds),
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
  return { orders: await withPostalEntrants(db, orders), ...pageInfo(total, query.page, query.pageSize) };
}

export async function adminOrderDetail(db: Knex, orderId: number): Promise<AdminOrderRecord> {
  const order = await loadOrder(db, orderId, true);
  if (!order) throw notFound('Order not found');
  const cardRefunds = await db('orderRefunds')
    .where({ orderId })
    .orderBy('id')
    .select('amountPence', 'status', 'createdAt', 'sentAt');
  return { order, auditLog: await auditTrail(db, 'order', orderId), cardRefunds };
}
