import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { ERROR_CODES } from '../../contract/errors';
import type { DrawBeacon } from '../draws/beacon/drawBeacon';
import type { IntentState, PaymentGateway } from '../payments/gateway';
import type { AppDeps } from '../platform/context';
import { conflict, HttpError } from '../platform/errors';
import type { EventBus } from '../platform/events';
import type { FaultInjector } from '../platform/faults';
import type { Mailer } from '../platform/mailer';
import type { Metrics } from '../platform/observability/metrics';

// What every payment path shares: its dependencies, what a gateway says was paid, what
// fulfilment answers, and how the customer is told.

export interface PaymentDeps {
  db: Knex;
  events: EventBus;
  logger: Logger;
  gateway: PaymentGateway;
  mailer: Mailer;
  siteName: string;
  faults?: FaultInjector;
  /** An auto-win sell-out fixes its draw's beacon round (api/draws). */
  beacon: DrawBeacon;
  /** payments_total and reconciler_settled_total (docs/operations.md#metrics). */
  metrics?: Metrics;
}

/** What checkout and the confirm routes need besides. */
export interface CheckoutDeps extends PaymentDeps {
  windowSeconds: number;
  /** CREDIT_CARD_MONTHLY_CAP_PENCE. */
  creditCardCapPence: number;
}

/** What every payment path needs, from the running app and its one gateway. */
export const paymentDepsOf = (app: AppDeps, gateway: PaymentGateway): PaymentDeps => ({
  db: app.db,
  events: app.events,
  logger: app.logger,
  gateway,
  mailer: app.mailer,
  siteName: app.config.siteName,
  faults: app.faults,
  beacon: app.drawBeacon,
  metrics: app.metrics,
});

/** What a gateway says was paid. */
export interface PaymentReport {
  provider: 'stripe' | 'sandbox' | 'credit';
  /** The gateway's payment id; null for orders paid wholly by credit. */
  intentId: string | null;
  /** The order id the payment carries in its metadata (or the order itself for credit). */
  orderId: number | null;
  amountPence: number;
  currency: string;
}

/** What a gateway's view of a payment says was paid, as fulfilment takes it. */
export const reportOf = (provider: 'stripe' | 'sandbox', state: IntentState): PaymentReport => ({
  provider,
  intentId: state.id,
  orderId: state.orderId,
  amountPence: state.amountPence,
  currency: state.currency,
});

export type FulfilmentResult =
  | { outcome: 'completed'; orderId: number }
  | { outcome: 'already_completed'; orderId: number }
  /** The money goes back: the tickets could not be sold. refundPending while the gateway has not confirmed. */
  | { outcome: 'refunded'; orderId: number; reason: string; refundPending: boolean }
  /** A credit-only order that could not be completed: nothing was charged, so nothing goes back. */
  | { outcome: 'not_completed'; orderId: number; reason: string }
  /** Nothing was done: the payment does not match an order of ours. */
  | { outcome: 'rejected'; orderId: number | null; reason: string };

export const REPLACED_CHECKOUT =
  'This checkout was replaced by a newer one. Please use the latest payment form.';
export const STILL_PROCESSING =
  'Your last payment for these tickets is still being processed. Please wait a moment.';
export const PAYMENT_CANCELLED = 'This payment was cancelled. Please start checkout again.';
const PROVIDER_DOWN = 'The payment service is not available right now. Please try again in a moment.';
export const UNMATCHED_PAYMENT = 'This payment could not be matched to your order.';

/** The customer's 502 when a gateway call failed (logged). */
export function providerDown(deps: Pick<PaymentDeps, 'logger'>, err: unknown) {
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
