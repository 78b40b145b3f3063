// The one interface every card-payment gateway implements (Stripe, and the offline sandbox).
// Amounts are integer pence; the currency is always 'gbp'. Fulfilment never trusts the browser:
// it acts on what the gateway reports (a signed webhook, or retrieveIntent).

export type GatewayName = 'stripe' | 'sandbox';

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

/** The gateway's view of a payment, reduced to what fulfilment needs. */
export interface IntentState {
  id: string;
  /** succeeded = money taken; open = waiting for (another) card attempt; canceled = will never be paid. */
  status: 'succeeded' | 'open' | 'processing' | 'canceled';
  amountPence: number;
  currency: string;
  /** The order id from the intent's metadata, or null when it has none. */
  orderId: number | null;
  clientSecret: string | null;
  lastError: string | null;
}

export interface PaymentGateway {
  readonly name: GatewayName;
  /** Given to the browser (Stripe.js); null for the sandbox. */
  readonly publishableKey: string | null;
  /** True when no real money moves (the sandbox, or Stripe test keys). */
  readonly testMode: boolean;
  createIntent(input: {
    orderId: number;
    amountPence: number;
    currency: 'gbp';
    description: string;
    idempotencyKey: string;
  }): Promise<CreatedIntent>;
  retrieveIntent(id: string): Promise<IntentState>;
  /** Cancels an unpaid intent; an intent that is already paid or cancelled is left as it is. */
  cancelIntent(id: string): Promise<void>;
  /** Refunds a paid intent. The same idempotency key never refunds twice. */
  refund(input: {
    intentId: string;
    amountPence: number;
    reason: string;
    orderId: number;
    idempotencyKey: string;
  }): Promise<{ id: string }>;
}

/** The gateway could not be reached or refused the request (not a card decline). */
export class GatewayError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
