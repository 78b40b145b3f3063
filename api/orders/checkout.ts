import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import {
  belowCardMinimum,
  CARD_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_SPEND_PENCE,
  type CreatePaymentIntentInput,
  creditToApply,
  EMPTY_CART_MESSAGE,
  formatOrderNumber,
  type PaymentIntentResponse,
  type SandboxConfirmInput,
  type SandboxConfirmResult,
} from '../../contract/checkout';
import { ERROR_CODES } from '../../contract/errors';
import { penceToPounds } from '../../contract/money';
import { lockForUpdate } from '../../db/dialect';
import { CartItem, type Competition, Order, OrderItem, type User } from '../../db/models';
import { claimCardFunding } from '../accounts/protection/creditCardCap';
import { assertWithinSpendLimit } from '../accounts/protection/spendLimits';
import type { SandboxGateway } from '../payments/sandbox';
import { evaluateTestCard, isExpired } from '../payments/sandboxCards';
import { badRequest, conflict, HttpError, notFound } from '../platform/errors';
import { inUnitOfWork } from '../platform/unitOfWork';
import { heldNumbersOf, ownedBy } from '../tickets/cartQueries';
import { cartChanged } from '../tickets/cartRevision';
import { assertMayPlay } from '../tickets/holdChecks';
import {
  type FulfilmentResult,
  fulfilPayment,
  type PaymentDeps,
  recordPaymentFailure,
  reportOf,
} from './fulfilment';

// Starting a payment: the cart becomes a pending order (a snapshot of titles, prices and numbers),
// the holds are extended for the payment window, and the gateway is asked for a payment intent.

export interface CheckoutDeps extends PaymentDeps {
  windowSeconds: number;
  /** CREDIT_CARD_MONTHLY_CAP_PENCE. */
  creditCardCapPence: number;
}

const OPEN_STATUSES = ['pending', 'failed'] as const;
const CARD_DATE_PAST = "Your card's expiration date is in the past.";
const REPLACED_CHECKOUT = 'This checkout was replaced by a newer one. Please use the latest payment form.';
const PROVIDER_DOWN = 'The payment service is not available right now. Please try again in a moment.';
const STILL_PROCESSING =
  'Your last payment for these tickets is still being processed. Please wait a moment.';
const UNMATCHED_PAYMENT = 'This payment could not be matched to your order.';
/** Rounds of "cancel the replaced payments, then decide again" before giving up. */
const MAX_RELEASE_ROUNDS = 4;

/**
 * Thrown out of the checkout transaction (rolling it back) when it would replace open orders whose
 * payments have not yet been cancelled at the gateway: an order is never cancelled while its
 * payment may still take money.
 */
class PaymentsToRelease extends Error {
  constructor(readonly orders: Order[]) {
    super('replaced orders have payments to cancel first');
  }
}

const titlesOf = (items: Array<{ title: string }>) => {
  const titles = [...new Set(items.map((i) => `"${i.title}"`))];
  return titles.length === 1
    ? titles[0]!
    : `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
};

interface Line {
  cartItemId: number;
  competitionId: number;
  title: string;
  ticketPricePence: number;
  numbers: number[];
}

interface Prepared {
  order: Order;
  reused: boolean;
  superseded: Order[];
}

/** What checkout decided about this cart. Nothing has been written when it is made, only rows locked. */
interface CheckoutPlan {
  lines: Line[];
  subtotal: number;
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

function response(deps: CheckoutDeps, order: Order, clientSecret: string | null): PaymentIntentResponse {
  const card = order.paymentProvider !== 'credit';
  return {
    clientSecret,
    orderId: order.id,
    orderNumber: formatOrderNumber(order.id),
    amount: penceToPounds(order.totalPence),
    subtotal: penceToPounds(order.subtotalPence),
    creditApplied: penceToPounds(order.creditAppliedPence),
    currency: 'gbp',
    provider: card ? deps.gateway.name : 'credit',
    publishableKey: card ? deps.gateway.publishableKey : null,
    status: order.status === 'completed' ? 'completed' : 'pending',
    testMode: card ? deps.gateway.testMode : false,
  };
}

/**
 * The cart as order lines; 409 naming the items whose hold has run out (swept or not: it is not
 * the customer's any more) or whose competition is closed.
 */
function payableLines(
  items: CartItem[],
  competitions: Map<number, Competition>,
  held: Map<number, number[]>,
  now: number,
): Line[] {
  const titleOf = (i: CartItem) =>
    competitions.get(i.competitionId)?.title ?? `Competition ${i.competitionId}`;
  const named = (list: CartItem[]) =>
    list.map((i) => ({ id: i.id, competitionId: i.competitionId, title: titleOf(i) }));
  const expired = items.filter((i) => i.expiresAt <= now || (held.get(i.id)?.length ?? 0) !== i.quantity);
  if (expired.length) {
    throw conflict(
      `Your reservation has expired for ${titlesOf(named(expired))}. Please remove ${expired.length === 1 ? 'it' : 'them'} from your cart and choose your tickets again.`,
      { expired: named(expired) },
    );
  }
  const closed = items.filter((i) => {
    const c = competitions.get(i.competitionId);
    return c?.status !== 'active' || c.endDate <= now;
  });
  if (closed.length) {
    throw conflict(
      `${titlesOf(named(closed))} ${closed.length === 1 ? 'is' : 'are'} closed to new entries. Please remove ${closed.length === 1 ? 'it' : 'them'} from your cart.`,
      { closed: named(closed) },
    );
  }
  return items.map((i) => ({
    cartItemId: i.id,
    competitionId: i.competitionId,
    title: titleOf(i),
    ticketPricePence: competitions.get(i.competitionId)!.ticketPricePence,
    numbers: held.get(i.id)!,
  }));
}

/** What the lines cost, the credit applied, who takes the rest, and the cart's fingerprint. */
function priceOf(deps: CheckoutDeps, lines: Line[], creditPence: number, input: CreatePaymentIntentInput) {
  const subtotal = lines.reduce((sum, l) => sum + l.ticketPricePence * l.numbers.length, 0);
  if (input.useCredit && subtotal < CREDIT_MINIMUM_SPEND_PENCE) throw badRequest(CREDIT_MINIMUM_MESSAGE);
  // The same rule the cart's summary shows (including the card's 30p minimum).
  const credit = creditToApply(subtotal, creditPence, input.useCredit);
  const total = subtotal - credit;
  // Stripe refuses a smaller charge with an error; the customer gets a message to act on instead.
  if (belowCardMinimum(total)) throw new HttpError(400, ERROR_CODES.cardMinimum, CARD_MINIMUM_MESSAGE);
  const provider: Order['paymentProvider'] = total === 0 ? 'credit' : deps.gateway.name;
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        lines: lines.map((l) => [l.competitionId, l.ticketPricePence, l.numbers]),
        credit,
        provider,
      }),
    )
    .digest('hex');
  return { subtotal, credit, total, provider, fingerprint };
}

/**
 * Reads and decides: locks the customer and their cart, checks the cart can be paid for, prices
 * it, and chooses between the open order made from this cart and a new one. Writes nothing.
 */
async function decideCheckout(
  trx: Knex.Transaction,
  deps: CheckoutDeps,
  user: User,
  guestId: string,
  input: CreatePaymentIntentInput,
  now: number,
  released: ReadonlySet<string>,
): Promise<CheckoutPlan> {
  // The user row is the customer's checkout lock: one checkout at a time, a steady credit balance.
  const account = (await lockForUpdate(
    trx,
    trx('users').where({ id: user.id }).first('id', 'siteCreditPence'),
  )) as {
    siteCreditPence: number;
  };
  await assertMayPlay(trx, user.id, now);
  const items = (await lockForUpdate(
    trx,
    CartItem.query(trx)
      .modify(ownedBy({ guestId, userId: user.id }))
      .orderBy('id'),
  )) as CartItem[];
  if (!items.length) throw badRequest(EMPTY_CART_MESSAGE);
  const competitions = new Map<number, Competition>();
  for (const c of (await trx('competitions')
    .whereIn('id', [...new Set(items.map((i) => i.competitionId))])
    .select('id', 'title', 'ticketPricePence', 'status', 'endDate')) as Competition[]) {
    competitions.set(c.id, c);
  }
  const lines = payableLines(items, competitions, await heldNumbersOf(trx, items), now);
  const price = priceOf(deps, lines, account.siteCreditPence, input);
  await assertWithinSpendLimit(trx, user.id, price.subtotal, now);

  const open = (await lockForUpdate(
    trx,
    Order.query(trx)
      .where({ userId: user.id })
      .whereIn('status', [...OPEN_STATUSES]),
  )) as Order[];
  const reuse = input.forceNew
    ? undefined
    : open.find(
        (o) =>
          o.fingerprint === price.fingerprint &&
          o.paymentProvider === price.provider &&
          price.provider !== 'credit' &&
          o.stripePaymentIntentId !== null,
      );
  // The payment window: holds last at least until it ends (never shortened).
  const until = now + deps.windowSeconds * 1000;
  const superseded = open.filter((o) => o !== reuse);
  const unreleased = superseded.filter(
    (o) =>
      o.stripePaymentIntentId &&
      o.paymentProvider === deps.gateway.name &&
      !released.has(o.stripePaymentIntentId),
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
    await trx('orders')
      .whereIn(
        'id',
        superseded.map((o) => o.id),
      )
      .update({
        status: 'cancelled',
        cancelledAt: now,
        notice: 'Replaced by a newer checkout.',
        updatedAt: now,
      });
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
    stripePaymentIntentId: null,
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
  for (const l of plan.lines) {
    await OrderItem.query(trx).insert({
      orderId: order.id,
      competitionId: l.competitionId,
      title: l.title,
      ticketPricePence: l.ticketPricePence,
      quantity: l.numbers.length,
      selectedNumbers: l.numbers,
      createdAt: now,
    });
  }
  return order;
}

/**
 * One transaction: check the cart and decide, then snapshot it into an order and extend its holds.
 * `released`: payment intents already cancelled at the gateway, whose orders may be replaced.
 */
async function prepareOrder(
  trx: Knex.Transaction,
  deps: CheckoutDeps,
  user: User,
  guestId: string,
  input: CreatePaymentIntentInput,
  now: number,
  released: ReadonlySet<string>,
): Promise<Prepared> {
  const plan = await decideCheckout(trx, deps, user, guestId, input, now, released);
  return applyCheckout(trx, user, guestId, plan, now);
}

/**
 * Cancels the payment of an order about to be replaced, at the gateway. If the gateway says the
 * money was already taken, the order is settled instead through fulfilment (sold, or refunded if
 * it cannot be). Returns the fulfilment's result, or null when the payment is cancelled.
 */
async function releasePayment(deps: CheckoutDeps, order: Order): Promise<FulfilmentResult | null> {
  const intentId = order.stripePaymentIntentId!;
  // A refused cancel (it succeeded a moment ago) is fine: the state read next says what happened.
  await deps.gateway.cancelIntent(intentId).catch((err) => {
    deps.logger.warn({ err, orderId: order.id }, 'could not cancel a replaced payment intent');
  });
  const state = await deps.gateway.retrieveIntent(intentId).catch((err) => {
    throw providerDown(deps, err);
  });
  if (state.status === 'canceled') return null;
  if (state.status === 'succeeded') {
    const result = await fulfilPayment(deps, reportOf(deps.gateway.name, state));
    deps.logger.info(
      { orderId: order.id, outcome: result.outcome },
      'a replaced order had been paid: settled instead of cancelled',
    );
    if (result.outcome === 'rejected') throw conflict(UNMATCHED_PAYMENT);
    return result;
  }
  if (state.status === 'processing') throw conflict(STILL_PROCESSING);
  // Still open: the gateway did not cancel it, so the order cannot be replaced yet.
  throw providerDown(deps, new Error(`payment intent ${intentId} is still open after cancelling`));
}

/**
 * The checkout transaction, after the payments of the orders it replaces are cancelled at the
 * gateway (or, when already paid, those orders are settled). `settled` collects the orders that
 * turned out to be paid, so that a cart they emptied can answer with them.
 */
async function prepareReplacingSafely(
  deps: CheckoutDeps,
  user: User,
  guestId: string,
  input: CreatePaymentIntentInput,
  now: number,
  settled: Order[],
): Promise<Prepared> {
  const released = new Set<string>();
  for (let round = 0; ; round++) {
    try {
      return await inUnitOfWork(deps, async (uow) => {
        const result = await prepareOrder(uow.trx, deps, user, guestId, input, now, released);
        await cartChanged(uow, { guestId, userId: user.id });
        for (const old of result.superseded)
          uow.emit('order.changed', { orderId: old.id, change: 'cancelled' });
        return result;
      });
    } catch (err) {
      // Another checkout of this customer keeps adding orders: the newest one wins.
      if (!(err instanceof PaymentsToRelease)) throw err;
      if (round >= MAX_RELEASE_ROUNDS) throw conflict(REPLACED_CHECKOUT);
      for (const order of err.orders) {
        const result = await releasePayment(deps, order);
        if (!result) released.add(order.stripePaymentIntentId!);
        else if (result.outcome === 'completed' || result.outcome === 'already_completed')
          settled.push(order);
      }
    }
  }
}

/**
 * POST /api/create-payment-intent. forceNew: always a new order (any open order of the customer is
 * cancelled, and its payment intent too). Without it, an open order made from exactly this cart
 * (same numbers, prices and credit) is reused with its payment intent, so reopening the payment
 * dialog does not pile up orders. Either way the customer has at most one open order.
 */
export async function createPaymentIntent(
  deps: CheckoutDeps,
  user: User,
  guestId: string,
  input: CreatePaymentIntentInput,
  now = Date.now(),
): Promise<PaymentIntentResponse> {
  const settled: Order[] = [];
  let prepared: Prepared;
  try {
    prepared = await prepareReplacingSafely(deps, user, guestId, input, now, settled);
  } catch (err) {
    // The earlier payment went through and bought everything in the cart: that is the answer.
    const paid = settled.at(-1);
    if (paid && err instanceof HttpError && err.message === EMPTY_CART_MESSAGE) {
      return afterFulfilment(deps, { outcome: 'already_completed', orderId: paid.id }, null);
    }
    throw err;
  }
  const { order } = prepared;

  if (prepared.reused) {
    const state = await deps.gateway.retrieveIntent(order.stripePaymentIntentId!).catch((err) => {
      throw providerDown(deps, err);
    });
    if (state.status === 'open' && state.clientSecret) return response(deps, order, state.clientSecret);
    if (state.status === 'succeeded') {
      const result = await fulfilPayment(deps, reportOf(deps.gateway.name, state));
      return afterFulfilment(deps, result, null);
    }
    if (state.status === 'processing') throw conflict(STILL_PROCESSING);
    // Cancelled at the gateway: start afresh.
    return createPaymentIntent(deps, user, guestId, { ...input, forceNew: true }, now);
  }

  if (order.paymentProvider === 'credit') {
    const result = await fulfilPayment(
      deps,
      { provider: 'credit', intentId: null, orderId: order.id, amountPence: 0, currency: 'gbp' },
      now,
    );
    return afterFulfilment(deps, result, null);
  }

  let intent: { id: string; clientSecret: string };
  try {
    intent = await deps.gateway.createIntent({
      orderId: order.id,
      amountPence: order.totalPence,
      currency: 'gbp',
      description: `${deps.siteName} order ${formatOrderNumber(order.id)}`,
      idempotencyKey: `order-${order.id}-intent`,
    });
  } catch (err) {
    await deps.db('orders').where({ id: order.id, status: 'pending' }).update({
      status: 'cancelled',
      cancelledAt: Date.now(),
      failureMessage: 'The payment service was unavailable.',
    });
    throw providerDown(deps, err);
  }
  deps.faults?.reach('after-intent-created');
  const attached = await inUnitOfWork(deps, async (uow) => {
    const changed = await uow
      .trx('orders')
      .where({ id: order.id, status: 'pending' })
      .update({ stripePaymentIntentId: intent.id, updatedAt: Date.now() });
    if (changed) uow.emit('order.changed', { orderId: order.id, change: 'created' });
    return changed;
  });
  if (!attached) {
    // A concurrent checkout (a double click, another tab) replaced this order while its payment
    // was being created; it saw no payment to cancel then. This payment must never take money.
    await deps.db('orders').where({ id: order.id }).update({ stripePaymentIntentId: intent.id });
    await deps.gateway.cancelIntent(intent.id).catch((err) => {
      deps.logger.warn({ err, orderId: order.id }, 'could not cancel the payment of a replaced order');
    });
    throw conflict(REPLACED_CHECKOUT);
  }
  order.stripePaymentIntentId = intent.id;
  return response(deps, order, intent.clientSecret);
}

export function providerDown(deps: PaymentDeps, err: unknown) {
  deps.logger.error({ err }, 'payment gateway call failed');
  return new HttpError(502, ERROR_CODES.paymentUnavailable, PROVIDER_DOWN);
}

/**
 * The customer's 409 for a payment that did not complete its order, saying what happened to the
 * money: refunded, or (credit only) never charged. Returns for a sale.
 */
export function assertCompleted(
  result: FulfilmentResult,
): asserts result is Extract<FulfilmentResult, { outcome: 'completed' | 'already_completed' }> {
  if (result.outcome === 'refunded')
    throw conflict(result.reason, { orderId: result.orderId, refunded: true });
  if (result.outcome === 'not_completed')
    throw conflict(result.reason, { orderId: result.orderId, refunded: false, charged: false });
  if (result.outcome === 'rejected') throw conflict(UNMATCHED_PAYMENT);
}

async function afterFulfilment(
  deps: CheckoutDeps,
  result: FulfilmentResult,
  clientSecret: string | null,
): Promise<PaymentIntentResponse> {
  assertCompleted(result);
  const order = (await Order.query(deps.db).findById(result.orderId)) as Order;
  return response(deps, order, clientSecret);
}

/**
 * POST /api/payments/sandbox/confirm: the sandbox's stand-in for Stripe.js confirming a card. A
 * good test card takes the money and fulfils the order at once; a declined one leaves the order
 * failed with its holds in place, so the customer can try another card.
 */
export async function confirmSandboxPayment(
  deps: CheckoutDeps,
  sandbox: SandboxGateway,
  user: User,
  input: SandboxConfirmInput,
  now = Date.now(),
): Promise<SandboxConfirmResult> {
  // A date in the past is a typing mistake the card form catches (as Stripe.js does), not a bank
  // decline: a 400 on the field that changes nothing, rather than a failed attempt on the order.
  if (isExpired(input.expMonth, input.expYear, now)) {
    const field = input.expYear < new Date(now).getUTCFullYear() ? 'expYear' : 'expMonth';
    throw new HttpError(400, ERROR_CODES.validation, CARD_DATE_PAST, { fields: { [field]: CARD_DATE_PAST } });
  }
  const intent = await sandbox.findByClientSecret(input.clientSecret);
  const order = intent?.orderId
    ? ((await Order.query(deps.db).findById(intent.orderId)) as Order | undefined)
    : undefined;
  if (!intent || !order || order.userId !== user.id) throw notFound('Payment not found');

  const fulfil = async () =>
    fulfilPayment(deps, {
      provider: 'sandbox',
      intentId: intent.id,
      orderId: intent.orderId,
      amountPence: intent.amountPence,
      currency: intent.currency,
    });
  const answer = (result: FulfilmentResult, message: string): SandboxConfirmResult => {
    assertCompleted(result);
    return { status: 'succeeded', orderId: order.id, message };
  };

  if (intent.status === 'succeeded') return answer(await fulfil(), 'This order has already been paid.');
  if (intent.status === 'canceled' || order.status === 'cancelled') {
    throw conflict('This payment was cancelled. Please start checkout again.');
  }
  const outcome = evaluateTestCard(input, now);
  if (!outcome.ok) {
    await sandbox.recordDecline(intent.id, outcome.code, outcome.message);
    await recordPaymentFailure(deps, intent.id, outcome.message);
    throw new HttpError(402, ERROR_CODES.paymentFailed, outcome.message, {
      reason: outcome.code,
      orderId: order.id,
    });
  }
  // The funding is known before the money moves: over the credit-card cap, nothing is charged.
  await claimCardFunding(deps.db, {
    orderId: order.id,
    userId: user.id,
    funding: outcome.funding,
    capPence: deps.creditCardCapPence,
  });
  // Only one concurrent confirmation moves the money; every one of them then asks for
  // fulfilment, which sells once.
  await sandbox.capture(intent.id);
  deps.faults?.reach('after-capture');
  const current = await sandbox.retrieveIntent(intent.id);
  if (current.status !== 'succeeded')
    throw conflict('This payment was cancelled. Please start checkout again.');
  return answer(await fulfil(), 'Payment successful');
}

/**
 * PATCH /api/orders/:id { status: 'completed' }: the confirmation page asks; the server checks
 * with the gateway and fulfils only a payment the gateway reports as succeeded.
 */
export async function confirmOrderPaid(deps: PaymentDeps, order: Order): Promise<void> {
  if (order.status === 'completed') return;
  if (order.status === 'cancelled' && !order.refundReason) {
    throw conflict('This order was cancelled. Please start checkout again.');
  }
  if (!order.stripePaymentIntentId || order.paymentProvider !== deps.gateway.name) {
    throw conflict('Payment has not been received for this order.');
  }
  const state = await deps.gateway.retrieveIntent(order.stripePaymentIntentId).catch((err) => {
    throw providerDown(deps, err);
  });
  if (state.status !== 'succeeded') {
    throw conflict('Payment has not been received for this order yet.', { paymentStatus: state.status });
  }
  assertCompleted(await fulfilPayment(deps, reportOf(deps.gateway.name, state)));
}
