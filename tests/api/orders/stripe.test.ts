import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../api/payments/gateway';
import { StripeGateway } from '../../../api/payments/stripe';
import { shopper } from '../../support/accounts';
import {
  card,
  creditState,
  customer,
  emailsFor,
  expectTicketInvariants,
  grantCredit,
  hold,
  orderRow,
  soldNumbers,
  startCheckout,
  ticketsOf,
  ticketsSold,
} from '../../support/checkout';
import {
  FAKE_STRIPE_PUBLISHABLE_KEY,
  FAKE_STRIPE_SECRET_KEY,
  type FakePaymentIntent,
  type FakeStripe,
  useStripeTestServer,
} from '../../support/fakeStripe';
import { insertCompetition } from '../../support/fixtures';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import type { TestServer } from '../../support/testServer';

// Card payments through Stripe: the app uses the real stripe SDK against a Stripe-compatible fake
// (tests/support/fakeStripe.ts), and Stripe's webhooks are signed with the SDK's own helper.

describe.skipIf(engineUnavailable())(`checkout with Stripe on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let stripe: FakeStripe;
  useStripeTestServer((started, fake) => {
    server = started;
    stripe = fake;
    db = started.database.db;
  });

  /** Stripe delivering a webhook: no cookie, no CSRF token, the exact bytes it signed. */
  async function deliver(payload: string, signature: string | null) {
    const res = await fetch(`${server.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature ? { 'Stripe-Signature': signature } : {}),
      },
      body: payload,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** A signed event, as Stripe sends it (pretty-printed JSON). */
  function signedEvent(type: string, intent: FakePaymentIntent | Record<string, unknown>) {
    const event = stripe.event(type, intent);
    const payload = JSON.stringify(event, null, 2);
    return { event, payload, signature: stripe.sign(payload) };
  }

  const send = async (type: string, intent: FakePaymentIntent | Record<string, unknown>) => {
    const e = signedEvent(type, intent);
    return deliver(e.payload, e.signature);
  };

  /** A customer with numbers held and a Stripe payment started for them. */
  async function checkoutWith(
    numbers: number[],
    f: { totalTickets?: number; ticketPricePence?: number } = {},
  ) {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 150, ...f });
    const { client, user } = await customer(server.url, competitionId);
    await hold(client, competitionId, numbers);
    const intent = await startCheckout(client);
    const order = await orderRow(db, intent.orderId);
    return {
      competitionId,
      client,
      user,
      intent,
      order,
      pi: stripe.intents.get(order.paymentIntentId)!,
    };
  }

  const eventRows = (eventId: string) => db('paymentEvents').where({ provider: 'stripe', eventId });

  it('creates a Stripe payment intent for the order, through the real SDK', async () => {
    const { intent, order, pi, client, competitionId } = await checkoutWith([5, 6]);
    expect(intent).toMatchObject({
      provider: 'stripe',
      publishableKey: FAKE_STRIPE_PUBLISHABLE_KEY,
      testMode: true,
      status: 'pending',
      amount: 3,
      currency: 'gbp',
    });
    expect(pi).toBeDefined();
    expect(intent.clientSecret).toBe(pi.client_secret);
    expect(order).toMatchObject({ paymentProvider: 'stripe', status: 'pending', totalPence: 300 });
    const created = stripe.requests.find(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/payment_intents' &&
        r.params.metadata &&
        (r.params.metadata as Record<string, string>).orderId === String(intent.orderId),
    );
    expect(created).toMatchObject({
      idempotencyKey: `order-${intent.orderId}-intent`,
      params: {
        amount: '300',
        currency: 'gbp',
        metadata: { orderId: String(intent.orderId) },
        allowed_payment_method_types: ['card'],
      },
    });

    // Reopening checkout with the same cart reuses the intent (asking Stripe how it stands).
    const again = await startCheckout(client);
    expect(again).toMatchObject({ orderId: intent.orderId, clientSecret: pi.client_secret });
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${pi.id}` });

    // The sandbox's card form does not exist with Stripe.
    const sandbox = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card(),
    });
    expect(sandbox.status).toBe(404);
    // Not paid yet: the confirmation page's PATCH is refused after asking Stripe.
    const early = await client.request('PATCH', `/api/orders/${intent.orderId}`, { status: 'completed' });
    expect(early.status).toBe(409);
    expect(early.body.details).toEqual({ paymentStatus: 'open' });
    expect(await ticketsSold(db, competitionId)).toBe(0);
  });

  it('webhook: refuses anything not signed exactly, then fulfils the genuine event once', async () => {
    const { intent, pi, client, competitionId, user } = await checkoutWith([10, 11, 12]);
    const watcher = await connectSocket(server.url);
    try {
      const ack = await watch(watcher, competitionId);
      if (!ack.ok) throw new Error(ack.message);
      const purchased = collect(watcher, 'tickets:purchased');
      const { event, payload, signature } = signedEvent('payment_intent.succeeded', stripe.succeed(pi.id));
      const eventId = event.id as string;
      expect(payload).toContain('"amount_received": 450');

      const nowSeconds = Math.floor(Date.now() / 1000);
      const refused: Array<[string, string, string | null, string]> = [
        [
          'one byte changed',
          payload.replace('"amount_received": 450', '"amount_received": 950'),
          signature,
          'Invalid Stripe signature.',
        ],
        ['re-serialised', JSON.stringify(JSON.parse(payload)), signature, 'Invalid Stripe signature.'],
        ['missing header', payload, null, 'Missing Stripe-Signature header.'],
        [
          'stale timestamp',
          payload,
          stripe.sign(payload, { timestamp: nowSeconds - 301 }),
          'Invalid Stripe signature.',
        ],
        [
          'another secret',
          payload,
          stripe.sign(payload, { secret: 'whsec_someone_else' }),
          'Invalid Stripe signature.',
        ],
        ['garbage header', payload, 't=1,v1=abc', 'Invalid Stripe signature.'],
      ];
      for (const [what, body, header, message] of refused) {
        const res = await deliver(body, header);
        expect(res.status, what).toBe(400);
        expect(res.body.message, what).toBe(message);
      }
      expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'pending', paidAt: null });
      expect((await ticketsOf(db, competitionId)).map((t) => t.status)).toEqual([
        'reserved',
        'reserved',
        'reserved',
      ]);
      expect(await eventRows(eventId)).toEqual([]);
      expect(emailsFor(server.database.dataDir, intent.orderNumber)).toEqual([]);

      const ok = await deliver(payload, signature);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ received: true });
      expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'completed', failureMessage: null });
      expect(await soldNumbers(db, competitionId, intent.orderId)).toEqual([10, 11, 12]);
      expect(await ticketsSold(db, competitionId)).toBe(3);
      expect(await db('userEntries').where({ orderId: intent.orderId, userId: user.id })).toHaveLength(1);
      expect(await eventRows(eventId)).toHaveLength(1);
      expect((await client.get('/api/cart')).body).toEqual([]);
      await waitFor(() => purchased.length === 1, 2000, 'tickets:purchased');
      expect(purchased[0]).toEqual({
        competitionId,
        version: ack.snapshot.version + 1,
        numbers: [10, 11, 12],
        ticketsSold: 3,
      });
      await waitFor(() => emailsFor(server.database.dataDir, intent.orderNumber).length === 1, 2000, 'email');

      // Stripe redelivers: acknowledged, nothing changes.
      const dup = await deliver(payload, signature);
      expect(dup).toEqual({ status: 200, body: { received: true, duplicate: true } });
      const patched = await client.request('PATCH', `/api/orders/${intent.orderId}`, { status: 'completed' });
      expect(patched.status).toBe(200);
      expect(await ticketsSold(db, competitionId)).toBe(3);
      expect(emailsFor(server.database.dataDir, intent.orderNumber)).toHaveLength(1);
      expect(purchased).toHaveLength(1);
    } finally {
      watcher.disconnect();
    }
  });

  it('the same success delivered 20 times at once (and the PATCH racing it) fulfils once', async () => {
    const { intent, pi, client, competitionId, user } = await checkoutWith([20, 21]);
    const { event, payload, signature } = signedEvent('payment_intent.succeeded', stripe.succeed(pi.id));
    const other = signedEvent('payment_intent.succeeded', stripe.intents.get(pi.id)!);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => deliver(payload, signature)),
      deliver(other.payload, other.signature),
      client.request('PATCH', `/api/orders/${intent.orderId}`, { status: 'completed' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(22).fill(200));
    expect(await db('orders').where({ userId: user.id, status: 'completed' })).toHaveLength(1);
    expect(await ticketsOf(db, competitionId)).toEqual([
      { number: 20, status: 'sold', orderId: intent.orderId, userId: user.id },
      { number: 21, status: 'sold', orderId: intent.orderId, userId: user.id },
    ]);
    expect(await ticketsSold(db, competitionId)).toBe(2);
    expect(await db('userEntries').where({ userId: user.id })).toHaveLength(1);
    expect(await eventRows(event.id as string)).toHaveLength(1);
    // No wait: a delivery that fulfils writes the confirmation before it answers
    // (api/orders/fulfilment/fulfilment.ts), and every delivery has answered.
    expect(emailsFor(server.database.dataDir, intent.orderNumber)).toHaveLength(1);
    await expectTicketInvariants(db);
  });

  it('a success for the wrong amount or currency, or for no order of ours, fulfils nothing', async () => {
    const { intent, pi, competitionId } = await checkoutWith([30]);
    const paid = stripe.succeed(pi.id);
    for (const forged of [
      { ...paid, amount_received: paid.amount - 1 },
      { ...paid, currency: 'eur' },
      { ...paid, metadata: { orderId: String(intent.orderId + 1000) } },
      { ...paid, id: 'pi_not_ours', metadata: {} },
    ]) {
      const res = await send('payment_intent.succeeded', forged);
      expect(res.status).toBe(200);
      expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'pending', paidAt: null });
      expect(await ticketsSold(db, competitionId)).toBe(0);
      expect((await ticketsOf(db, competitionId))[0]!.status).toBe('reserved');
    }
    // The genuine event still completes it.
    expect((await send('payment_intent.succeeded', paid)).status).toBe(200);
    expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'completed' });
  });

  it('payment_failed then a late success completes; a late payment_failed never downgrades', async () => {
    const { intent, pi, competitionId } = await checkoutWith([40, 41]);
    const declined = stripe.decline(pi.id, 'Your card has insufficient funds.');
    expect((await send('payment_intent.payment_failed', declined)).status).toBe(200);
    expect(await orderRow(db, intent.orderId)).toMatchObject({
      status: 'failed',
      failureMessage: 'Your card has insufficient funds.',
    });
    expect((await ticketsOf(db, competitionId)).map((t) => t.status)).toEqual(['reserved', 'reserved']);

    expect((await send('payment_intent.succeeded', stripe.succeed(pi.id))).status).toBe(200);
    expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'completed', failureMessage: null });
    expect(await soldNumbers(db, competitionId, intent.orderId)).toEqual([40, 41]);

    // Stripe does not promise order: an older failure arriving now changes nothing.
    expect((await send('payment_intent.payment_failed', declined)).status).toBe(200);
    expect((await send('payment_intent.canceled', { ...declined, status: 'canceled' })).status).toBe(200);
    expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'completed', failureMessage: null });
    expect(await ticketsSold(db, competitionId)).toBe(2);
  });

  it('payment_intent.canceled cancels an unpaid order; other event types are acknowledged and ignored', async () => {
    const { intent, pi } = await checkoutWith([45]);
    expect((await send('payment_intent.canceled', { ...pi, status: 'canceled' })).status).toBe(200);
    expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'cancelled' });
    const other = await send('charge.refund.updated', { id: 're_123', object: 'refund' });
    expect(other).toEqual({ status: 200, body: { received: true, ignored: true } });
  });

  it('a payment made after it was already paid elsewhere: create-payment-intent finds it succeeded', async () => {
    const { intent, pi, client, competitionId } = await checkoutWith([46]);
    stripe.succeed(pi.id); // paid in Stripe; the webhook has not arrived yet
    const again = await startCheckout(client);
    expect(again).toMatchObject({ orderId: intent.orderId, status: 'completed', clientSecret: null });
    expect(await soldNumbers(db, competitionId, intent.orderId)).toEqual([46]);
    expect((await send('payment_intent.succeeded', stripe.intents.get(pi.id)!)).status).toBe(200);
    expect(await ticketsSold(db, competitionId)).toBe(1);
  });

  it('a payment for a checkout replaced by a newer one is refunded through Stripe', async () => {
    const { intent, pi, client, competitionId } = await checkoutWith([47]);
    const second = await startCheckout(client, { forceNew: true }); // another tab starts afresh
    expect(second.orderId).not.toBe(intent.orderId);
    // Its payment was cancelled at Stripe first; should it be taken anyway, it goes back. (A payment
    // taken before the replacement is fulfilled instead: checkoutIntegrity.test.ts.)
    expect(stripe.intents.get(pi.id)!.status).toBe('canceled');
    stripe.succeed(pi.id);
    expect((await send('payment_intent.succeeded', stripe.intents.get(pi.id)!)).status).toBe(200);
    const first = await orderRow(db, intent.orderId);
    expect(first).toMatchObject({ status: 'cancelled', refundedPence: 150 });
    expect(first.refundReason).toMatch(/replaced by a newer one/);
    const refunds = stripe.refunds.filter((r) => r.payment_intent === pi.id);
    expect(refunds).toEqual([expect.objectContaining({ id: first.refundReference, amount: 150 })]);
    // The newer checkout still holds the number and can be paid.
    expect((await ticketsOf(db, competitionId))[0]).toMatchObject({ number: 47, status: 'reserved' });
    const newer = stripe.intents.get((await orderRow(db, second.orderId)).paymentIntentId)!;
    expect((await send('payment_intent.succeeded', stripe.succeed(newer.id))).status).toBe(200);
    expect(await soldNumbers(db, competitionId, second.orderId)).toEqual([47]);
  });

  it('a hold lost while paying, with no numbers left: refunded once through Stripe, never sold twice', async () => {
    const { intent, pi, competitionId, user } = await checkoutWith([1, 2], { totalTickets: 2 });
    const past = Date.now() - 1000;
    await db('cartItems').where({ userId: user.id }).update({ expiresAt: past });
    await db('tickets').where({ userId: user.id, status: 'reserved' }).update({ expiresAt: past });
    await hold(await shopper(server.url, competitionId), competitionId, [1]);

    const paid = stripe.succeed(pi.id);
    expect((await send('payment_intent.succeeded', paid)).status).toBe(200);
    const order = await orderRow(db, intent.orderId);
    expect(order).toMatchObject({ status: 'cancelled', refundedPence: 300, paidAt: null });
    expect(order.refundReason).toMatch(/^Your number 1 in ".*" was taken while you were paying/);
    expect(stripe.refunds.filter((r) => r.payment_intent === pi.id)).toEqual([
      expect.objectContaining({ id: order.refundReference, amount: 300 }),
    ]);
    expect(
      stripe.requests.find((r) => r.path === '/v1/refunds' && r.params.payment_intent === pi.id),
    ).toMatchObject({
      idempotencyKey: `refund-order-${intent.orderId}`,
      params: { amount: '300', metadata: { orderId: String(intent.orderId) } },
    });
    // Redelivered and asked again: still one refund.
    expect((await send('payment_intent.succeeded', paid)).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === pi.id)).toHaveLength(1);
    expect(await ticketsSold(db, competitionId)).toBe(0);
    await expectTicketInvariants(db);
  });

  it('a refund that cannot reach Stripe is retried when Stripe redelivers the event', async () => {
    const { intent, pi, competitionId, user, client } = await checkoutWith([1], { totalTickets: 1 });
    const past = Date.now() - 1000;
    await db('cartItems').where({ userId: user.id }).update({ expiresAt: past });
    await db('tickets').where({ userId: user.id, status: 'reserved' }).update({ expiresAt: past });
    await hold(await shopper(server.url, competitionId), competitionId, [1]);
    const { event, payload, signature } = signedEvent('payment_intent.succeeded', stripe.succeed(pi.id));

    stripe.failNextRequests(1); // the refund call
    const first = await deliver(payload, signature);
    expect(first.status).toBe(503);
    expect(await orderRow(db, intent.orderId)).toMatchObject({ status: 'cancelled', refundedAt: null });
    expect((await client.get(`/api/orders/${intent.orderId}`)).body.refund).toMatchObject({
      refundedAt: null,
    });
    expect(stripe.refunds.filter((r) => r.payment_intent === pi.id)).toEqual([]);
    expect(await eventRows(event.id as string)).toEqual([]);

    const retried = await deliver(payload, signature);
    expect(retried).toEqual({ status: 200, body: { received: true } });
    const order = await orderRow(db, intent.orderId);
    expect(order.refundedAt).not.toBeNull();
    expect(stripe.refunds.filter((r) => r.payment_intent === pi.id)).toEqual([
      expect.objectContaining({ id: order.refundReference, amount: 150 }),
    ]);
    expect(await ticketsSold(db, competitionId)).toBe(0);
    await expectTicketInvariants(db);
  });

  it('credit never leaves less than the £0.30 Stripe minimum on the card', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 250 });
    const { client, user } = await customer(server.url, competitionId);
    await grantCredit(db, user.id, 490);
    await hold(client, competitionId, [1, 2]);
    const res = await startCheckout(client, { useCredit: true });
    expect(res).toMatchObject({ provider: 'stripe', subtotal: 5, creditApplied: 4.7, amount: 0.3 });
    const pi = stripe.intents.get((await orderRow(db, res.orderId)).paymentIntentId)!;
    expect(pi.amount).toBe(30);
    expect((await send('payment_intent.succeeded', stripe.succeed(pi.id))).status).toBe(200);
    const credit = await creditState(db, user.id);
    expect(credit.balance).toBe(20);
    expect(credit.ledger).toBe(20);
  });

  it('Stripe being down is a 502 with a clear message; the next try starts a new payment', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    const { client, user } = await customer(server.url, competitionId);
    await hold(client, competitionId, [3]);
    stripe.failNextRequests(1);
    const down = await client.post('/api/create-payment-intent', {});
    expect(down.status).toBe(502);
    expect(down.body.message).toBe(
      'The payment service is not available right now. Please try again in a moment.',
    );
    const failed = await db('orders').where({ userId: user.id });
    expect(failed).toEqual([expect.objectContaining({ status: 'cancelled', paymentIntentId: null })]);
    expect((await ticketsOf(db, competitionId))[0]).toMatchObject({ status: 'reserved' });
    const retry = await startCheckout(client);
    expect(retry.orderId).not.toBe(failed[0].id);
    expect(retry.clientSecret).toMatch(/^pi_/);
  });

  it('the gateway sends idempotency keys the fake honours, like Stripe', async () => {
    const gateway = new StripeGateway({
      secretKey: FAKE_STRIPE_SECRET_KEY,
      publishableKey: FAKE_STRIPE_PUBLISHABLE_KEY,
      apiUrl: stripe.url,
    });
    const input = {
      orderId: 999,
      amountPence: 500,
      currency: 'gbp' as const,
      description: 'x',
      idempotencyKey: 'k-1',
    };
    const a = await gateway.createIntent(input);
    const b = await gateway.createIntent(input);
    expect(b).toEqual(a);
    await expect(gateway.createIntent({ ...input, amountPence: 600 })).rejects.toThrow(GatewayError);
    stripe.succeed(a.id);
    const refund = { intentId: a.id, amountPence: 500, reason: 'test', orderId: 999, idempotencyKey: 'r-1' };
    const r1 = await gateway.refund(refund);
    expect(await gateway.refund(refund)).toEqual(r1);
    expect(stripe.refunds.filter((r) => r.payment_intent === a.id)).toHaveLength(1);
    // A second, different refund of the same money is refused.
    await expect(gateway.refund({ ...refund, idempotencyKey: 'r-2' })).rejects.toThrow(GatewayError);
    // A wrong secret key is refused too.
    const stranger = new StripeGateway({
      secretKey: 'sk_test_wrong',
      publishableKey: 'pk_test_x',
      apiUrl: stripe.url,
    });
    await expect(stranger.retrieveIntent(a.id)).rejects.toThrow(GatewayError);
  });

  it('webhook: a signed event of a shape Stripe never sends is a 400, recorded nowhere', async () => {
    for (const payload of [
      '{"id":"evt_odd1","object":"event","type":"payment_intent.canceled","data":{}}',
      '{"id":"evt_odd2","object":"event","type":"payment_intent.succeeded","data":{"object":{"id":["x"]}}}',
      '{"object":"event","type":"payment_intent.payment_failed","data":{"object":{"id":"pi_1"}}}',
      '{"id":"evt_odd3","type":7,"data":false}',
      '[1]',
    ]) {
      const res = await deliver(payload, stripe.sign(payload));
      expect(res.status, payload).toBe(400);
      expect(res.body.code).toBe('bad_request');
    }
    expect(await db('paymentEvents').whereIn('eventId', ['evt_odd1', 'evt_odd2', 'evt_odd3'])).toEqual([]);
  });

  it('the webhook needs no CSRF token, but other routes still do', async () => {
    const { client } = await customer(server.url);
    const res = await fetch(`${server.url}/api/create-payment-intent`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: client.cookieHeader },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect((await send('customer.created', { id: 'cus_1', object: 'customer' })).status).toBe(200);
  });
});
