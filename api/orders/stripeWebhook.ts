import type Stripe from 'stripe';
import * as v from 'valibot';
import { ERROR_CODES } from '../../contract/errors';
import { isUniqueViolation } from '../../db/dialect';
import { intentStateOf, type StripeGateway } from '../payments/stripe';
import { badRequest, HttpError } from '../platform/errors';
import { fulfilPayment } from './fulfilment/fulfilment';
import { recordPaymentCanceled, recordPaymentFailure } from './fulfilment/outcomes';
import { type PaymentDeps, reportOf } from './payment';

export type WebhookAnswer = { received: true; duplicate?: true; ignored?: true };

/**
 * One verified Stripe event. Each event id is handled once: a delivery of an id already recorded
 * changes nothing. The id is recorded after handling, so an event whose handling failed (the
 * database was down) is handled again when Stripe redelivers it; concurrent deliveries of one id
 * are safe because fulfilment itself sells once.
 */
// A verified signature says who sent the bytes, not that they have the shape the SDK's types
// promise (a leaked secret, a test tool, an API change). Only the fields read here are checked.
const nonEmpty = v.pipe(v.string(), v.minLength(1), v.maxLength(255));
const EventShape = v.looseObject({
  id: nonEmpty,
  type: v.pipe(v.string(), v.minLength(1)),
  data: v.looseObject({ object: v.looseObject({}) }),
});
const PaymentIntentShape = v.looseObject({
  id: nonEmpty,
  status: v.optional(v.string()),
  amount: v.optional(v.number()),
  amount_received: v.optional(v.number()),
  currency: v.optional(v.string()),
  metadata: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
  client_secret: v.optional(v.nullable(v.string())),
  last_payment_error: v.optional(v.nullable(v.looseObject({ message: v.optional(v.nullable(v.string())) }))),
});

export async function handleStripeEvent(
  deps: PaymentDeps & { gateway: StripeGateway },
  event: Stripe.Event,
): Promise<WebhookAnswer> {
  const { db } = deps;
  if (!v.is(EventShape, event)) throw badRequest('Malformed Stripe event.');
  if (event.type.startsWith('payment_intent.') && !v.is(PaymentIntentShape, event.data.object)) {
    throw badRequest('Malformed Stripe payment intent.');
  }
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
