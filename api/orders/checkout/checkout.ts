import {
  type CreatePaymentIntentInput,
  EMPTY_CART_MESSAGE,
  formatOrderNumber,
  type PaymentIntentResponse,
} from '../../../contract/checkout';
import { penceToPounds } from '../../../contract/money';
import { Order, type User } from '../../../db/models';
import { hasInstantWinCompetition } from '../../accounts/protection/creditCardCap';
import { conflict, HttpError } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { fulfilPayment } from '../fulfilment/fulfilment';
import { cancelOpen } from '../orderStatus';
import {
  assertCompleted,
  type CheckoutDeps,
  type FulfilmentResult,
  type PaymentDeps,
  providerDown,
  REPLACED_CHECKOUT,
  reportOf,
  STILL_PROCESSING,
} from '../payment';
import type { Prepared } from './orderRows';
import { prepareReplacingSafely } from './replacement';

// Starting a payment: the cart becomes a pending order (a snapshot of titles, prices and numbers),
// the holds are extended for the payment window, and the gateway is asked for a payment intent.
// Pricing is in pricing.ts, the order rows in orderRows.ts, replacing the customer's
// open orders in replacement.ts; the confirm routes in sandboxConfirm.ts and stripeConfirm.ts.

async function response(
  deps: CheckoutDeps,
  order: Order,
  clientSecret: string | null,
): Promise<PaymentIntentResponse> {
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
    debitCardsOnly: card && (await hasInstantWinCompetition(deps.db, order.id)),
  };
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
    const state = await deps.gateway.retrieveIntent(order.paymentIntentId!).catch((err) => {
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
    await cancelOpen(
      deps.db,
      [order.id],
      { failureMessage: 'The payment service was unavailable.' },
      Date.now(),
    );
    throw providerDown(deps, err);
  }
  deps.faults?.reach('after-intent-created');
  const attached = await inUnitOfWork(deps, async (uow) => {
    const changed = await uow
      .trx('orders')
      .where({ id: order.id, status: 'pending' })
      .update({ paymentIntentId: intent.id, updatedAt: Date.now() });
    if (changed) uow.emit('order.changed', { orderId: order.id, change: 'created' });
    return changed;
  });
  if (!attached) {
    // A concurrent checkout (a double click, another tab) replaced this order while its payment
    // was being created; it saw no payment to cancel then. This payment must never take money.
    await deps.db('orders').where({ id: order.id }).update({ paymentIntentId: intent.id });
    await deps.gateway.cancelIntent(intent.id).catch((err) => {
      deps.logger.warn({ err, orderId: order.id }, 'could not cancel the payment of a replaced order');
    });
    throw conflict(REPLACED_CHECKOUT);
  }
  order.paymentIntentId = intent.id;
  return response(deps, order, intent.clientSecret);
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
 * PATCH /api/orders/:id { status: 'completed' }: the confirmation page asks; the server checks
 * with the gateway and fulfils only a payment the gateway reports as succeeded.
 */
export async function confirmOrderPaid(deps: PaymentDeps, order: Order): Promise<void> {
  if (order.status === 'completed') return;
  if (order.status === 'cancelled' && !order.refundReason) {
    throw conflict('This order was cancelled. Please start checkout again.');
  }
  if (!order.paymentIntentId || order.paymentProvider !== deps.gateway.name) {
    throw conflict('Payment has not been received for this order.');
  }
  const state = await deps.gateway.retrieveIntent(order.paymentIntentId).catch((err) => {
    throw providerDown(deps, err);
  });
  if (state.status !== 'succeeded') {
    throw conflict('Payment has not been received for this order yet.', { paymentStatus: state.status });
  }
  assertCompleted(await fulfilPayment(deps, reportOf(deps.gateway.name, state)));
}
