import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from './testServer';

// A small Stripe-compatible API server for tests: the app under test talks to it with the real
// stripe SDK (STRIPE_API_URL). It implements the calls the gateway makes, parses Stripe's
// form-encoded bodies, honours Idempotency-Key like Stripe (same key and same request: the first
// answer again; same key with other parameters: 400), checks the secret key, and answers with
// objects shaped like Stripe's. Tests move intents along (succeed, fail) and build webhook events
// that they sign with the SDK's own helper.

export const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_51Westcountry';
export const FAKE_STRIPE_PUBLISHABLE_KEY = 'pk_test_fake_51Westcountry';
export const FAKE_STRIPE_WEBHOOK_SECRET = 'whsec_fake_test_secret_0123456789';
const API_VERSION = '2026-10-28.endive';

type Json = Record<string, unknown>;

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  status: 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';
  client_secret: string;
  cancellation_reason: string | null;
  canceled_at: number | null;
  created: number;
  livemode: false;
  last_payment_error: { code: string; message: string; type: 'card_error' } | null;
  latest_charge: string | null;
  payment_method_types: string[];
  [key: string]: unknown;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  metadata: Record<string, string>;
  status: 'succeeded';
  created: number;
  [key: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  params: Json;
  idempotencyKey: string | undefined;
}

/**
 * Parses Stripe's form encoding (`metadata[orderId]=7&payment_method_types[0]=card`) into nested
 * objects and arrays.
 */
export function parseStripeForm(body: string): Json {
  const out: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/[[\]]+/).filter((p) => p !== '');
    let node: Json | unknown[] = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const key = (Array.isArray(node) ? Number(part) : part) as never;
      if (last) {
        (node as Json)[key] = value;
        return;
      }
      (node as Json)[key] ??= nextIsIndex ? [] : {};
      node = (node as Json)[key] as Json | unknown[];
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String((body as { message?: string }).message));
  }
}

const invalid = (message: string, param?: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}) });
const missing = (kind: string, what: string) =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${what}'`,
  });

export interface FakeStripe {
  url: string;
  intents: Map<string, FakePaymentIntent>;
  refunds: FakeRefund[];
  requests: RecordedRequest[];
  /** Answer the next `count` API calls with 500 (a Stripe outage). */
  failNextRequests(count: number): void;
  /**
   * Runs `hook` once, just before the first API call it matches is handled, so a test
   * can make something happen at Stripe in that exact window, e.g. the customer's card going
   * through while the app asks to cancel the payment.
   */
  beforeNext(match: (method: string, path: string) => boolean, hook: () => void): void;
  /** The customer's card went through: the intent is succeeded with the money received. */
  succeed(intentId: string): FakePaymentIntent;
  /** A card attempt was declined: the intent waits for another payment method, as Stripe's does. */
  decline(intentId: string, message?: string): FakePaymentIntent;
  /**
   * What the browser's Payment Element makes (stripe.createConfirmationToken): a token whose card
   * has this funding; confirming with it succeeds, is declined, or asks for 3-D Secure.
   */
  confirmationToken(
    funding: 'credit' | 'debit' | 'prepaid',
    outcome?: 'succeeded' | 'declined' | 'requires_action',
    card?: { brand: string; last4: string },
  ): string;
  /** The newest intent created for an order id (from its metadata). */
  intentForOrder(orderId: number): FakePaymentIntent | undefined;
  /** A Stripe event around a payment intent (a copy of it, so later changes do not leak in). */
  event(type: string, intent: FakePaymentIntent | Json, overrides?: Json): Json;
  /** A body and Stripe-Signature header signed with the webhook secret by the SDK's own helper. */
  sign(payload: string, options?: { timestamp?: number; secret?: string }): string;
  close(): Promise<void>;
}

/** The settings that point the app under test at this fake, as a server's environment. */
export const fakeStripeEnv = (stripe: Pick<FakeStripe, 'url'>) => ({
  STRIPE_SECRET_KEY: FAKE_STRIPE_SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY: FAKE_STRIPE_PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET: FAKE_STRIPE_WEBHOOK_SECRET,
  STRIPE_API_URL: stripe.url,
});

/**
 * A test server pointed at its own fake Stripe for the suite: both start before it and stop after
 * it; onStart receives them.
 */
export function useStripeTestServer(
  onStart: (server: TestServer, stripe: FakeStripe) => void | Promise<void>,
): void {
  let server: TestServer | undefined;
  let stripe: FakeStripe | undefined;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    server = await startTestServer(fakeStripeEnv(stripe));
    await onStart(server, stripe);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
  });
}

export async function startFakeStripe(
  secretKey = FAKE_STRIPE_SECRET_KEY,
  webhookSecret = FAKE_STRIPE_WEBHOOK_SECRET,
): Promise<FakeStripe> {
  const intents = new Map<string, FakePaymentIntent>();
  const refunds: FakeRefund[] = [];
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  let failures = 0;
  let pendingHook: { match: (method: string, path: string) => boolean; hook: () => void } | null = null;

  const tokens = new Map<
    string,
    {
      funding: string;
      outcome: 'succeeded' | 'declined' | 'requires_action';
      card: { brand: string; last4: string };
    }
  >();
  const intentOr404 = (intentId: string) => {
    const pi = intents.get(intentId);
    if (!pi) throw missing('payment_intent', intentId);
    return pi;
  };

  function route(method: string, path: string, params: Json): Json {
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 30) {
        throw invalid('Amount must be at least £0.30 gbp', 'amount');
      }
      if (typeof params.currency !== 'string') throw invalid('Missing required param: currency.', 'currency');
      const piId = id('pi');
      const pi: FakePaymentIntent = {
        id: piId,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: params.currency.toLowerCase(),
        description: (params.description as string | undefined) ?? null,
        metadata: (params.metadata as Record<string, string> | undefined) ?? {},
        status: 'requires_payment_method',
        client_secret: `${piId}_secret_${randomBytes(12).toString('hex')}`,
        cancellation_reason: null,
        canceled_at: null,
        created: nowSeconds(),
        livemode: false,
        last_payment_error: null,
        latest_charge: null,
        payment_method_types: ['card'],
        allowed_payment_method_types: params.allowed_payment_method_types ?? null,
      };
      intents.set(piId, pi);
      return pi;
    }
    let m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (m && method === 'GET') return intentOr404(decodeURIComponent(m[1]!));
    m = /^\/v1\/confirmation_tokens\/([^/]+)$/.exec(path);
    if (m && method === 'GET') {
      const tokenId = decodeURIComponent(m[1]!);
      const token = tokens.get(tokenId);
      if (!token) throw missing('confirmation_token', tokenId);
      return {
        id: tokenId,
        object: 'confirmation_token',
        created: nowSeconds(),
        expires_at: nowSeconds() + 43_200,
        livemode: false,
        payment_intent: null,
        payment_method_preview: {
          type: 'card',
          // Stripe's fingerprint: one per card number, the same on every account.
          card: {
            fingerprint: `fp${token.card.brand}${token.card.last4}`,
            ...token.card,
            funding: token.funding,
            exp_month: 12,
            exp_year: 2030,
          },
        },
      };
    }
    m = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (m && method === 'POST') {
      const pi = intentOr404(decodeURIComponent(m[1]!));
      const token = tokens.get(String(params.confirmation_token));
      if (!token) throw missing('confirmation_token', String(params.confirmation_token));
      if (pi.status !== 'requires_payment_method') {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot confirm this PaymentIntent because it has a status of ${pi.status}.`,
        });
      }
      if (token.outcome === 'declined') {
        pi.last_payment_error = {
          code: 'card_declined',
          message: 'Your card was declined.',
          type: 'card_error',
        };
        throw new StripeApiError(402, {
          type: 'card_error',
          code: 'card_declined',
          message: 'Your card was declined.',
          payment_intent: structuredClone(pi),
        });
      }
      if (token.outcome === 'requires_action') {
        pi.status = 'requires_action';
        pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} };
        return pi;
      }
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
      pi.last_payment_error = null;
      pi.latest_charge = id('ch');
      return pi;
    }
    m = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (m && method === 'POST') {
      const pi = intentOr404(decodeURIComponent(m[1]!));
      if (pi.status === 'succeeded' || pi.status === 'canceled') {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
        });
      }
      pi.status = 'canceled';
      pi.canceled_at = nowSeconds();
      pi.cancellation_reason = (params.cancellation_reason as string | undefined) ?? null;
      return pi;
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = intentOr404(String(params.payment_intent));
      if (pi.status !== 'succeeded') {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'charge_not_refundable',
          message: `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
        });
      }
      const amount = params.amount === undefined ? pi.amount_received : Number(params.amount);
      const already = refunds.filter((r) => r.payment_intent === pi.id).reduce((s, r) => s + r.amount, 0);
      if (already + amount > pi.amount_received) {
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          message: `Refund amount (£${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge.`,
        });
      }
      const refund: FakeRefund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: pi.currency,
        payment_intent: pi.id,
        reason: (params.reason as string | undefined) ?? null,
        metadata: (params.metadata as Record<string, string> | undefined) ?? {},
        status: 'succeeded',
        created: nowSeconds(),
      };
      refunds.push(refund);
      return refund;
    }
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const params = req.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
      const key = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method!, path: url.pathname, params, idempotencyKey: key });
      const send = (status: number, body: Json) => {
        res.writeHead(status, {
          'Content-Type': 'application/json',
          'Request-Id': id('req'),
          'Stripe-Version': API_VERSION,
          ...(key ? { 'Idempotency-Key': key } : {}),
        });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        send(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided: ****' },
        });
        return;
      }
      if (failures > 0) {
        failures--;
        res.setHeader('Stripe-Should-Retry', 'false');
        send(500, { error: { type: 'api_error', message: 'An unknown error occurred (fake outage).' } });
        return;
      }
      if (pendingHook?.match(req.method!, url.pathname)) {
        const { hook } = pendingHook;
        pendingHook = null;
        hook();
      }
      const fingerprint = createHash('sha256').update(`${req.method} ${url.pathname} ${raw}`).digest('hex');
      if (key && req.method === 'POST') {
        const seen = idempotent.get(key);
        if (seen) {
          if (seen.fingerprint !== fingerprint) {
            send(400, {
              error: {
                type: 'idempotency_error',
                message:
                  'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              },
            });
            return;
          }
          res.setHeader('Idempotent-Replayed', 'true');
          send(seen.status, seen.body);
          return;
        }
      }
      let status = 200;
      let body: Json;
      try {
        body = structuredClone(route(req.method!, url.pathname, params));
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        status = err.status;
        body = { error: err.body };
      }
      if (key && req.method === 'POST') idempotent.set(key, { fingerprint, status, body });
      send(status, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    requests,
    failNextRequests(count) {
      failures = count;
    },
    beforeNext(match, hook) {
      pendingHook = { match, hook };
    },
    succeed(intentId) {
      const pi = intentOr404(intentId);
      pi.status = 'succeeded';
      pi.amount_received = pi.amount;
      pi.last_payment_error = null;
      pi.latest_charge = id('ch');
      return structuredClone(pi);
    },
    decline(intentId, message = 'Your card was declined.') {
      const pi = intentOr404(intentId);
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { code: 'card_declined', message, type: 'card_error' };
      return structuredClone(pi);
    },
    confirmationToken(funding, outcome = 'succeeded', card = { brand: 'visa', last4: '4242' }) {
      const tokenId = id('ctoken');
      tokens.set(tokenId, { funding, outcome, card });
      return tokenId;
    },
    intentForOrder(orderId) {
      return [...intents.values()].filter((pi) => pi.metadata.orderId === String(orderId)).at(-1);
    },
    event(type, intent, overrides = {}) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: API_VERSION,
        created: nowSeconds(),
        data: { object: structuredClone(intent) },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        ...overrides,
      };
    },
    sign(payload, options = {}) {
      return Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
