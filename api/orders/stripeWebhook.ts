import type Stripe from 'stripe';
import { ERROR_CODES } from '../../contract/errors';
import { isUniqueViolation } from '../../db/dialect';
import { intentStateOf, type StripeGateway } from '../payments/stripe';
import { HttpError } from '../platform/errors';
import {
  fulfilPayment,
  type PaymentDeps,
  recordPaymentCanceled,
  recordPaymentFailure,
  reportOf,
} from './fulfilment';

export type WebhookAnswer = { received: true; duplicate?: true; ignored?: true };

/**
 * One verified Stripe event. Each event id is handled once: a delivery of an id already recorded
 * changes nothing. The id is recorded after handling, so an event whose handling failed (the
 * database was down) is handled again when Stripe redelivers it; concurrent deliveries of one id
 * are safe because fulfilment itself sells once.
 */
export async function handleStripeEvent(
  deps: PaymentDeps & { gateway: StripeGateway },
  event: Stripe.Event,
): Promise<WebhookAnswer> {
  const { db } = deps;
  const seen = await db('paymentEvents').where({ provider: 'stripe', eventId: event.id }).first('id');
  if (seen) return { received: true, duplicate: true };

  let ignored = false;
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const state = intentStateOf(event.data.object);
      const result = await fulfilPayment(deps, reportOf('stripe', state));
      if (result.outcome === 'refunded' && result.refundPending) {
        // The money must go back but the refund call failed. Answering 2xx (and recording the
        // event) would mean Stripe never delivers it again, leaving the customer charged for
        // nothing; an error makes Stripe retry, and each retry tries the refund again.
        throw new HttpError(
          503,
          ERROR_CODES.paymentUnavailable,
          'The refund for this payment could not be sent yet; please deliver the event again.',
        );
      }
      break;
    }
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      await recordPaymentFailure(deps, pi.id, pi.last_payment_error?.message ?? 'The payment failed.');
      break;
    }
    case 'payment_intent.canceled':
      await recordPaymentCanceled(deps, event.data.object.id);
      break;
    default:
      ignored = true;
  }

  try {
    await db('paymentEvents').insert({
      provider: 'stripe',
      eventId: event.id,
      type: event.type.slice(0, 64),
      receivedAt: Date.now(),
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return { received: true, duplicate: true };
  }
  return ignored ? { received: true, ignored: true } : { received: true };
}
