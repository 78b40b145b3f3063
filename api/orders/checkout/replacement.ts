import type { CreatePaymentIntentInput } from '../../../contract/checkout';
import type { Order, User } from '../../../db/models';
import { conflict } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { cartChanged } from '../../tickets/cartRevision';
import { fulfilPayment } from '../fulfilment/fulfilment';
import {
  type CheckoutDeps,
  type FulfilmentResult,
  providerDown,
  REPLACED_CHECKOUT,
  reportOf,
  STILL_PROCESSING,
  UNMATCHED_PAYMENT,
} from '../payment';
import { PaymentsToRelease, type Prepared, prepareOrder } from './orderRows';

// Replacing an order: a new checkout cancels the customer's open orders, but never while their
// payment may still take money. Their payments are cancelled at the gateway first; one that turns
// out to be paid is settled through fulfilment instead.

/** Rounds of "cancel the replaced payments, then decide again" before giving up. */
const MAX_RELEASE_ROUNDS = 4;

/**
 * Cancels the payment of an order about to be replaced, at the gateway. If the gateway says the
 * money was already taken, the order is settled instead through fulfilment (sold, or refunded if
 * it cannot be). Returns the fulfilment's result, or null when the payment is cancelled.
 */
async function releasePayment(deps: CheckoutDeps, order: Order): Promise<FulfilmentResult | null> {
  const intentId = order.paymentIntentId!;
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
export async function prepareReplacingSafely(
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
        const result = await prepareOrder(uow.trx, deps, { user, guestId, input, now, released });
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
        if (!result) released.add(order.paymentIntentId!);
        else if (result.outcome === 'completed' || result.outcome === 'already_completed')
          settled.push(order);
      }
    }
  }
}
