import type { Knex } from 'knex';

// The money and ticket invariants after a crash or a shutdown, each returning the rows that break it.

/** Every payment the sandbox took belongs to a completed order, or to one refunded in full. */
export async function unsettledPayments(db: Knex) {
  const rows = (await db('sandboxPaymentIntents as i')
    .leftJoin('orders as o', 'o.paymentIntentId', 'i.id')
    .where('i.status', 'succeeded')
    .select(
      'i.id as intentId',
      'i.orderId as intentOrderId',
      'i.amountPence',
      'o.id as orderId',
      'o.status',
      'o.refundedAt',
      'o.refundedPence',
    )) as Array<Record<string, unknown>>;
  const refunds = (await db('sandboxRefunds')
    .groupBy('paymentIntentId')
    .select('paymentIntentId')
    .sum({ total: 'amountPence' })) as Array<{ paymentIntentId: string; total: number }>;
  const refunded = new Map(refunds.map((r) => [r.paymentIntentId, Number(r.total)]));
  return rows.filter((r) => {
    const back = refunded.get(r.intentId as string) ?? 0;
    if (r.status === 'completed') return back !== 0; // sold and refunded: the customer lost out
    return !(r.refundedAt && back === Number(r.amountPence)); // neither sold nor refunded in full
  });
}

/** A completed card order without a payment taken for its exact total. */
export async function unpaidCompletedOrders(db: Knex) {
  return db('orders as o')
    .leftJoin('sandboxPaymentIntents as i', 'i.id', 'o.paymentIntentId')
    .where('o.status', 'completed')
    .where('o.paymentProvider', 'sandbox')
    .where((q) =>
      q
        .whereNull('i.id')
        .orWhereNot('i.status', 'succeeded')
        .orWhereRaw('?? <> ??', ['i.amountPence', 'o.totalPence']),
    )
    .select('o.id', 'o.totalPence', 'i.id as intentId', 'i.status as intentStatus', 'i.amountPence');
}

/** A number sold twice, or sold rows that do not match what completed orders bought. */
export async function doubleSales(db: Knex) {
  const twice = await db('tickets')
    .where('status', 'sold')
    .groupBy('competitionId', 'number')
    .havingRaw('count(*) > 1')
    .select('competitionId', 'number')
    .count({ n: '*' });
  const items = (await db('orderItems as i')
    .join('orders as o', 'o.id', 'i.orderId')
    .where('o.status', 'completed')
    .select('i.orderId', 'i.competitionId', 'i.selectedNumbers')) as Array<{
    orderId: number;
    competitionId: number;
    selectedNumbers: string;
  }>;
  const bought = new Map<string, number[]>();
  for (const i of items) {
    for (const n of JSON.parse(i.selectedNumbers) as number[]) {
      const key = `${i.competitionId}:${n}`;
      bought.set(key, [...(bought.get(key) ?? []), Number(i.orderId)]);
    }
  }
  const sold = (await db('tickets')
    .where('status', 'sold')
    .select('competitionId', 'number', 'orderId')) as Array<{
    competitionId: number;
    number: number;
    orderId: number;
  }>;
  const soldKeys = new Map(sold.map((t) => [`${t.competitionId}:${t.number}`, Number(t.orderId)]));
  const boughtTwice = [...bought]
    .filter(([, orders]) => orders.length > 1)
    .map(([key, orders]) => ({ key, orders }));
  const notSold = [...bought]
    .filter(([key, orders]) => soldKeys.get(key) !== orders[0])
    .map(([key, orders]) => ({ key, orders, soldTo: soldKeys.get(key) ?? null }));
  const soldWithoutOrder = [...soldKeys]
    .filter(([key]) => !bought.has(key))
    .map(([key, orderId]) => ({ key, orderId }));
  return [...twice, ...boughtTwice, ...notSold, ...soldWithoutOrder];
}

/** competitions.tickets_sold against its sold rows. */
export async function miscounted(db: Knex) {
  return db('competitions as c')
    .leftJoin('tickets as t', (j) => j.on('t.competitionId', 'c.id').andOnVal('t.status', 'sold'))
    .groupBy('c.id', 'c.ticketsSold')
    .select('c.id', 'c.ticketsSold')
    .count({ soldRows: 't.id' })
    .havingRaw('count(t.id) <> c.tickets_sold');
}

/** Holds (and cart lines) still in place well after they expired: the sweeper runs every second. */
export async function staleHolds(db: Knex, now: number) {
  const slack = 3000;
  const tickets = await db('tickets')
    .where('status', 'reserved')
    .where('expiresAt', '<', now - slack)
    .select('id', 'competitionId', 'number', 'expiresAt');
  const items = await db('cartItems')
    .where('expiresAt', '<', now - slack)
    .select('id', 'competitionId', 'expiresAt');
  return [...tickets, ...items.map((i) => ({ cartItem: i }))];
}

/**
 * Holds out of step with the carts: a reserved number without its cart line, or a cart line whose
 * held numbers are not its quantity (fulfilment removes or shrinks the lines it paid for).
 */
export async function orphanedHolds(db: Knex) {
  const lost = await db('tickets as t')
    .leftJoin('cartItems as c', 'c.id', 't.cartItemId')
    .where('t.status', 'reserved')
    .whereNull('c.id')
    .select('t.competitionId', 't.number');
  const miscountedHolds = await db('cartItems as c')
    .leftJoin('tickets as t', (j) => j.on('t.cartItemId', 'c.id').andOnVal('t.status', 'reserved'))
    .groupBy('c.id', 'c.quantity')
    .select('c.id', 'c.quantity')
    .count({ held: 't.id' })
    .havingRaw('count(t.id) <> c.quantity');
  return [...lost, ...miscountedHolds];
}
