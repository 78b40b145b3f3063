import type { Knex } from 'knex';
import { type CreatePaymentIntentInput, EMPTY_CART_MESSAGE } from '../../../contract/checkout';
import { lockRows } from '../../../db/locks';
import { CartItem, type Competition, Order, OrderItem, type User } from '../../../db/models';
import { assertWithinSpendLimit } from '../../accounts/protection/spendLimits';
import { badRequest, unauthenticated } from '../../platform/errors';
import { heldNumbersOf, ownedBy } from '../../tickets/cartQueries';
import { assertMayPlay } from '../../tickets/holdChecks';
import { cancelOpen, OPEN_STATUSES } from '../orderStatus';
import type { CheckoutDeps } from '../payment';
import { type Line, payableLines, priceOf } from './pricing';

// Checkout's order rows: in one transaction the cart is checked and priced, then snapshotted into
// a pending order (or the open order made from this very cart is kept), the customer's other open
// orders are cancelled, and the holds are extended for the payment window.

/**
 * Thrown out of the checkout transaction (rolling it back) when it would replace open orders whose
 * payments have not yet been cancelled at the gateway: an order is never cancelled while its
 * payment may still take money.
 */
export class PaymentsToRelease extends Error {
  constructor(readonly orders: Order[]) {
    super('replaced orders have payments to cancel first');
  }
}

export interface Prepared {
  order: Order;
  reused: boolean;
  superseded: Order[];
}

/** What checkout decided about this cart. Nothing has been written when it is made, only rows locked. */
interface CheckoutPlan {
  lines: Line[];
  subtotal: number;
  /** Per line, what each of its tickets costs (pence), in the order of its numbers. */
  ticketCosts: number[][];
  credit: number;
  total: number;
  provider: Order['paymentProvider'];
  fingerprint: string;
  /** The customer's open order made from exactly this cart, kept with its payment intent. */
  reuse: Order | undefined;
  /** Every other open order of the customer: cancelled. */
  superseded: Order[];
  /** Cart items whose holds end before the payment window does, and when it ends. */
  extend: number[];
  until: number;
}

/** One checkout attempt: who, from which cart, with which choices. */
export interface CheckoutRequest {
  user: User;
  guestId: string;
  input: CreatePaymentIntentInput;
  now: number;
  /** Payment intents already cancelled at the gateway, whose orders may be replaced. */
  released: ReadonlySet<string>;
}

/**
 * The customer's open orders, locked. Only checkout opens an order, under the user row's lock,
 * so the plain read finds every one; the rows found are then locked by primary key (no gap
 * locks, so first checkouts of different people never deadlock on the orders' user index) and
 * read again, since fulfilment may have closed one meanwhile.
 */
async function openOrdersOf(trx: Knex.Transaction, userId: number): Promise<Order[]> {
  const ids = (await trx('orders')
    .where({ userId })
    .whereIn('status', [...OPEN_STATUSES])
    .pluck('id')) as number[];
  if (!ids.length) return [];
  const locked = (await lockRows(trx, 'order', Order.query(trx).whereIn('id', ids).orderBy('id'))) as Order[];
  return locked.filter((o) => (OPEN_STATUSES as readonly string[]).includes(o.status));
}

/**
 * Reads and decides: locks the customer, their open orders and their cart, checks the cart can be
 * paid for, prices it, and chooses between the open order made from this cart and a new one.
 * Writes nothing.
 */
async function decideCheckout(
  trx: Knex.Transaction,
  deps: CheckoutDeps,
  { user, guestId, input, now, released }: CheckoutRequest,
): Promise<CheckoutPlan> {
  const account = (await lockRows(
    trx,
    'user',
    trx('users').where({ id: user.id }).first('id', 'siteCreditPence', 'deletedAt'),
  )) as { siteCreditPence: number; deletedAt: number | null } | undefined;
  // Deleted while this request was on its way: a deleted account counts as signed out.
  if (!account || account.deletedAt) throw unauthenticated();
  const open = await openOrdersOf(trx, user.id);
  await assertMayPlay(trx, user.id, now);
  const items = (await lockRows(
    trx,
    'cartItem',
    CartItem.query(trx)
      .modify(ownedBy({ guestId, userId: user.id }))
      .orderBy('id'),
  )) as CartItem[];
  if (!items.length) throw badRequest(EMPTY_CART_MESSAGE);
  const competitions = new Map<number, Competition>();
  for (const c of (await trx('competitions')
    .whereIn('id', [...new Set(items.map((i) => i.competitionId))])
    .select('id', 'title', 'ticketPricePence', 'bundles', 'status', 'endDate')) as Competition[]) {
    competitions.set(c.id, c);
  }
  const lines = payableLines(items, competitions, await heldNumbersOf(trx, items), now);
  const price = priceOf(deps, lines, account.siteCreditPence, input);
  await assertWithinSpendLimit(trx, user.id, price.subtotal, now);

  const reuse = input.forceNew
    ? undefined
    : open.find(
        (o) =>
          o.fingerprint === price.fingerprint &&
          o.paymentProvider === price.provider &&
          price.provider !== 'credit' &&
          o.paymentIntentId !== null,
      );
  // The payment window: holds last at least until it ends (never shortened).
  const until = now + deps.windowSeconds * 1000;
  const superseded = open.filter((o) => o !== reuse);
  const unreleased = superseded.filter(
    (o) => o.paymentIntentId && o.paymentProvider === deps.gateway.name && !released.has(o.paymentIntentId),
  );
  if (unreleased.length) throw new PaymentsToRelease(unreleased);
  return {
    lines,
    ...price,
    reuse,
    superseded,
    extend: items.filter((i) => i.expiresAt < until).map((i) => i.id),
    until,
  };
}

/** Writes what decideCheckout decided: replaced orders cancelled, holds extended, the order made. */
async function applyCheckout(
  trx: Knex.Transaction,
  user: User,
  guestId: string,
  plan: CheckoutPlan,
  now: number,
): Promise<Prepared> {
  const { superseded, extend, until } = plan;
  if (superseded.length) {
    const ids = superseded.map((o) => o.id);
    await cancelOpen(trx, ids, { notice: 'Replaced by a newer checkout.' }, now);
  }
  if (extend.length) {
    await trx('cartItems').whereIn('id', extend).update({ expiresAt: until, updatedAt: now });
    await trx('tickets')
      .whereIn('cartItemId', extend)
      .where('status', 'reserved')
      .update({ expiresAt: until, updatedAt: now });
  }
  if (plan.reuse) return { order: plan.reuse, reused: true, superseded };
  return { order: await insertOrder(trx, user, guestId, plan, now), reused: false, superseded };
}

/** The pending order: a snapshot of the cart's titles, prices and numbers. */
async function insertOrder(
  trx: Knex.Transaction,
  user: User,
  guestId: string,
  plan: CheckoutPlan,
  now: number,
): Promise<Order> {
  const order = await Order.query(trx).insertAndFetch({
    userId: user.id,
    guestId,
    paymentProvider: plan.provider,
    paymentIntentId: null,
    subtotalPence: plan.subtotal,
    creditAppliedPence: plan.credit,
    totalPence: plan.total,
    currency: 'gbp',
    status: 'pending',
    fingerprint: plan.fingerprint,
    refundedPence: 0,
    createdAt: now,
    updatedAt: now,
  });
  // One insert per line: objection's array insert works only on PostgreSQL and SQL Server.
  for (const [i, l] of plan.lines.entries()) {
    const ticketCosts = plan.ticketCosts[i]!;
    await OrderItem.query(trx).insert({
      orderId: order.id,
      competitionId: l.competitionId,
      title: l.title,
      ticketPricePence: l.ticketPricePence,
      quantity: l.numbers.length,
      selectedNumbers: l.numbers,
      paidPence: ticketCosts.reduce((sum, c) => sum + c, 0),
      ticketCosts,
      createdAt: now,
    });
  }
  return order;
}

/** One transaction: check the cart and decide, then snapshot it into an order and extend its holds. */
export async function prepareOrder(
  trx: Knex.Transaction,
  deps: CheckoutDeps,
  request: CheckoutRequest,
): Promise<Prepared> {
  const plan = await decideCheckout(trx, deps, request);
  return applyCheckout(trx, request.user, request.guestId, plan, request.now);
}
