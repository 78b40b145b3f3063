import type { Knex } from 'knex';
import { costByNumber } from '../../contract/bundles';
import type { AdminStats } from '../../contract/checkout';
import { InstantWin, Order, OrderItem, type User, UserEntry } from '../../db/models';
import { conflict, notFound } from '../platform/errors';
import { withPostalEntrants } from './postal/postalEntrants';
import { type EntryDraw, type OrderWithItems, presentUserEntry } from './presenter';

/** An order with its items (and its customer, for admins), or undefined. */
export async function loadOrder(
  db: Knex,
  orderId: number,
  withUser = false,
): Promise<OrderWithItems | undefined> {
  const q = Order.query(db)
    .findById(orderId)
    .withGraphFetched(
      withUser ? '[items.competition, instantWins, user]' : '[items.competition, instantWins]',
    );
  const order = (await q) as OrderWithItems | undefined;
  // The admin's view names a postcard's entrant too.
  if (order && withUser) await withPostalEntrants(db, [order]);
  return order;
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

/** My Entries: newest purchase first, with each drawn competition's result. */
export async function listUserEntries(db: Knex, userId: number) {
  const entries = await UserEntry.query(db)
    .where({ userId })
    .withGraphFetched('competition')
    .orderBy([
      { column: 'purchasedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  const ids = [...new Set(entries.map((e) => e.competitionId))];
  const rows: Array<EntryDraw & { competitionId: number }> = ids.length
    ? await db('draws').whereIn('competitionId', ids).select('competitionId', 'winningNumber', 'drawnAt')
    : [];
  const further = (
    ids.length
      ? await db('drawPrizes')
          .whereIn('competitionId', ids)
          .orderBy(['competitionId', 'position'])
          .select('competitionId', 'position', 'title', 'winningNumber')
      : []
  ) as Array<{ competitionId: number; position: number; title: string; winningNumber: number }>;
  const draws = new Map(
    rows.map((r) => [
      Number(r.competitionId),
      {
        ...r,
        further: further
          .filter((p) => Number(p.competitionId) === Number(r.competitionId))
          .map((p) => ({
            position: Number(p.position),
            title: p.title,
            winningNumber: Number(p.winningNumber),
          })),
      },
    ]),
  );
  // Instant prizes won by this customer's orders, matched to the purchase that bought the number.
  const won = await InstantWin.query(db).where({ userId }).whereNotNull('wonAt').orderBy('number');
  // What each number cost on its order (bundles share their price among their tickets).
  const orderIds = [...new Set(entries.map((e) => e.orderId))];
  const lines = orderIds.length
    ? ((await OrderItem.query(db).whereIn('orderId', orderIds)) as OrderItem[])
    : [];
  const costsOf = (e: UserEntry) =>
    costByNumber(
      lines.filter(
        (l) => Number(l.orderId) === Number(e.orderId) && Number(l.competitionId) === Number(e.competitionId),
      ),
    );
  return entries.map((e) =>
    presentUserEntry(
      e,
      draws.get(e.competitionId),
      won.filter(
        (w) =>
          Number(w.orderId) === Number(e.orderId) &&
          Number(w.competitionId) === Number(e.competitionId) &&
          (e.ticketNumbers ?? []).includes(Number(w.number)),
      ),
      costsOf(e),
    ),
  );
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

/** Order history: every order of this customer, newest first, with items and competitions. */
export async function listOrdersOf(db: Knex, userId: number): Promise<OrderWithItems[]> {
  return (await Order.query(db)
    .where({ userId })
    .withGraphFetched('items.competition')
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])) as OrderWithItems[];
}

/**
 * The order a receipt is printed for: the customer's own (anyone else, admins included, gets the
 * same 404 as for a missing order), and only once it was paid.
 */
export async function receiptOrder(db: Knex, orderId: number, user: User): Promise<OrderWithItems> {
  const order = await loadOrder(db, orderId);
  if (!order || order.userId !== user.id) throw notFound('Order not found');
  if (order.paidAt === null) throw conflict('A receipt is available once the order has been paid.');
  return order;
}
