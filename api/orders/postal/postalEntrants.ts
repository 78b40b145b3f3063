import type { Knex } from 'knex';

// Who a free postal entry's £0 order is for (docs/product.md#free-postal-entry): the postcard's
// name and e-mail, which the admin's orders list and detail show as "Postal entry: <name>"
// (the order has no account unless the admin gave one).

export interface PostalEntrant {
  name: string;
  email: string;
}

/** Sets `postalEntrant` on each postal order (null on the others), in one query. */
export async function withPostalEntrants<
  T extends { id: number; paymentProvider: string | null; postalEntrant?: PostalEntrant | null },
>(db: Knex, orders: T[]): Promise<T[]> {
  const ids = orders.filter((o) => o.paymentProvider === 'postal').map((o) => o.id);
  const rows = ids.length
    ? ((await db('postalEntries').whereIn('orderId', ids).select('orderId', 'name', 'email')) as Array<
        PostalEntrant & { orderId: number }
      >)
    : [];
  const byOrder = new Map(rows.map((r) => [Number(r.orderId), { name: r.name, email: r.email }]));
  for (const o of orders) o.postalEntrant = byOrder.get(Number(o.id)) ?? null;
  return orders;
}

/** The order ids of postal entries whose name or e-mail matches a LIKE pattern (the orders search). */
export async function postalOrdersMatching(db: Knex, pattern: string): Promise<number[]> {
  const rows = (await db('postalEntries')
    .whereRaw("lower(email) like ? escape '!'", [pattern])
    .orWhereRaw("lower(name) like ? escape '!'", [pattern])
    .limit(1000)
    .select('orderId')) as Array<{ orderId: number }>;
  return rows.map((r) => Number(r.orderId));
}
