import Stripe from 'stripe';
import { GatewayError, type IntentState, type PaymentGateway } from './gateway';

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret?: string | undefined;
  /** Another API base (a Stripe-compatible server such as stripe-mock, or the tests' own). */
  apiUrl?: string | undefined;
}

/** A ConfirmationToken's card as Stripe previews it. */
export interface TokenCard {
  funding: string;
  brand: string | null;
  last4: string | null;
  /** Stripe's fingerprint of the card number: the same for one card on every account. */
  fingerprint: string | null;
}

/** The SDK's host/port/protocol options from a base URL such as http://127.0.0.1:12111. */
export function apiTarget(
  apiUrl: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

const STATUS: Record<string, IntentState['status']> = {
  succeeded: 'succeeded',
  processing: 'processing',
  canceled: 'canceled',
  requires_payment_method: 'open',
  requires_confirmation: 'open',
  requires_action: 'open',
  // Manual capture is not used; an authorised but uncaptured payment is not money received.
  requires_capture: 'processing',
};

export function intentStateOf(pi: Stripe.PaymentIntent): IntentState {
  const orderId = Number(pi.metadata?.orderId);
  return {
    id: pi.id,
    status: STATUS[pi.status] ?? 'open',
    // What was actually captured once succeeded; the requested amount before that.
    amountPence: pi.status === 'succeeded' ? pi.amount_received : pi.amount,
    currency: pi.currency,
    orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
    clientSecret: pi.client_secret ?? null,
    lastError: pi.last_payment_error?.message ?? null,
  };
}

/** Card payments through Stripe PaymentIntents (the official SDK). */
export class StripeGateway implements PaymentGateway {
  readonly name = 'stripe' as const;
  readonly publishableKey: string;
  readonly testMode: boolean;
  readonly webhookSecret: string | undefined;
  private readonly stripe: Stripe;

  constructor(settings: StripeSettings) {
    this.publishableKey = settings.publishableKey;
    this.webhookSecret = settings.webhookSecret;
    this.testMode = settings.secretKey.startsWith('sk_test_') || settings.secretKey.startsWith('rk_test_');
    this.stripe = new Stripe(settings.secretKey, {
      ...apiTarget(settings.apiUrl),
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'westcountry-prizes' },
    });
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new GatewayError(`Stripe ${what} failed: ${(err as Error).message}`, err);
    }
  }

  async createIntent(input: Parameters<PaymentGateway['createIntent']>[0]) {
    const pi = await this.call('create payment intent', () =>
      this.stripe.paymentIntents.create(
        {
          amount: input.amountPence,
          currency: input.currency,
          description: input.description,
          metadata: { orderId: String(input.orderId) },
          // Card only (the spec): Apple Pay and Google Pay are card wallets within 'card'.
          allowed_payment_method_types: ['card'],
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    if (!pi.client_secret) throw new GatewayError('Stripe returned a payment intent without a client secret');
    return { id: pi.id, clientSecret: pi.client_secret };
  }

  async retrieveIntent(id: string) {
    return intentStateOf(
      await this.call('retrieve payment intent', () => this.stripe.paymentIntents.retrieve(id)),
    );
  }

  async cancelIntent(id: string) {
    const current = await this.retrieveIntent(id);
    if (current.status !== 'open') return;
    await this.call('cancel payment intent', () =>
      this.stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' }),
    );
  }

  async refund(input: Parameters<PaymentGateway['refund']>[0]) {
    const refund = await this.call('refund', () =>
      this.stripe.refunds.create(
        {
          payment_intent: input.intentId,
          amount: input.amountPence,
          reason: 'requested_by_customer',
          metadata: { orderId: String(input.orderId), why: input.reason.slice(0, 450) },
        },
        { idempotencyKey: input.idempotencyKey },
      ),
    );
    return { id: refund.id };
  }

  /**
   * The card of a ConfirmationToken the browser made: funding ('credit', 'debit', 'prepaid',
   * 'unknown'), brand and last four digits (Stripe's payment_method_preview.card, the card the
   * confirm charges); null when the token is unknown or expired, or carries no card.
   */
  async cardOf(confirmationTokenId: string): Promise<TokenCard | null> {
    try {
      const token = await this.stripe.confirmationTokens.retrieve(confirmationTokenId);
      const card = token.payment_method_preview?.card;
      if (!card?.funding) return null;
      return {
        funding: card.funding,
        brand: card.brand ?? null,
        last4: card.last4 ?? null,
        fingerprint: card.fingerprint ?? null,
      };
    } catch (err) {
      if ((err as { code?: string }).code === 'resource_missing') return null;
      throw new GatewayError(`Stripe retrieve confirmation token failed: ${(err as Error).message}`, err);
    }
  }

  /**
   * Confirms the payment on the server with the browser's ConfirmationToken. A card decline is
   * an answer (`declined`), not an error.
   */
  async confirmWithToken(
    intentId: string,
    confirmationTokenId: string,
    returnUrl: string,
  ): Promise<{ state: IntentState; requiresAction: boolean; declined: string | null }> {
    try {
      const pi = await this.stripe.paymentIntents.confirm(intentId, {
        confirmation_token: confirmationTokenId,
        return_url: returnUrl,
      });
      return { state: intentStateOf(pi), requiresAction: pi.status === 'requires_action', declined: null };
    } catch (err) {
      if ((err as { type?: string }).type === 'StripeCardError') {
        const state = await this.retrieveIntent(intentId);
        return { state, requiresAction: false, declined: (err as Error).message };
      }
      throw new GatewayError(`Stripe confirm payment intent failed: ${(err as Error).message}`, err);
    }
  }

  /** Verifies the Stripe-Signature header against the raw body; throws when it does not match. */
  constructWebhookEvent(rawBody: Buffer, signature: string): Stripe.Event {
    if (!this.webhookSecret) throw new GatewayError('STRIPE_WEBHOOK_SECRET is not set');
    return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
  }
}
