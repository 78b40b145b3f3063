import type { Knex } from 'knex';
import type { AdminStats } from '../../contract/checkout';
import { Order, type User, UserEntry } from '../../db/models';
import { notFound } from '../platform/errors';
import type { OrderWithItems } from './presenter';

/** An order with its items (and its customer, for admins), or undefined. */
export async function loadOrder(
  db: Knex,
  orderId: number,
  withUser = false,
): Promise<OrderWithItems | undefined> {
  const q = Order.query(db)
    .findById(orderId)
    .withGraphFetched(withUser ? '[items, user]' : 'items');
  return (await q) as OrderWithItems | undefined;
}

/**
 * The order if this user may see it: its owner, or an admin. Anyone else gets the same 404 as for
 * an order that does not exist, so order ids reveal nothing.
 */
export async function orderVisibleTo(db: Knex, orderId: number, user: User): Promise<OrderWithItems> {
  const order = await loadOrder(db, orderId);
  if (!order || (order.userId !== user.id && user.role !== 'admin')) throw notFound('Order not found');
  return order;
}

/** My Entries: newest purchase first. */
export async function listUserEntries(db: Knex, userId: number) {
  return UserEntry.query(db)
    .where({ userId })
    .withGraphFetched('competition')
    .orderBy([
      { column: 'purchasedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}

/** The admin dashboard's counts (docs/product.md#admin-dashboard). */
export async function adminStats(db: Knex): Promise<AdminStats> {
  const count = async (q: Knex.QueryBuilder) =>
    Number(((await q.count({ n: '*' }).first()) as { n: number }).n);
  const [userCount, competitionCount, orderCount, reconciledPaymentCount] = await Promise.all([
    count(db('users').whereNull('deletedAt')),
    count(db('competitions')),
    count(db('orders')),
    // Captured payments the reconciler had to settle (api/orders/paymentReconciler.ts).
    count(db('paymentReconciliations')),
  ]);
  return { userCount, competitionCount, orderCount, reconciledPaymentCount };
}
