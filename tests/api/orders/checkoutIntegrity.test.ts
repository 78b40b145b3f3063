import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { CARD_MINIMUM_MESSAGE, EMPTY_CART_MESSAGE } from '../../../contract/checkout';
import {
  card,
  creditState,
  customer,
  expectTicketInvariants,
  grantCredit,
  hold,
  orderRow,
  soldNumbers,
  startCheckout,
} from '../../support/checkout';
import { type FakeStripe, useStripeTestServer } from '../../support/fakeStripe';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 16, points 2, 3 and 7: starting checkout again never cancels a paid order without a
// refund; a card payment under 30p is a 400 the customer can act on; and under parallel checkouts
// every refusal says exactly what happened to the customer's money.

const CANCELLED_PAYMENT = 'This payment was cancelled. Please start checkout again.';

const pay = (client: TestClient, clientSecret: string) =>
  client.post('/api/payments/sandbox/confirm', { clientSecret, ...card() });

/** Orders whose captured sandbox payment was neither fulfilled nor refunded: must be none. */
const capturedButCancelled = (db: Knex) =>
  db('orders as o')
    .join('sandboxPaymentIntents as i', 'i.id', 'o.paymentIntentId')
    .leftJoin('sandboxRefunds as r', 'r.paymentIntentId', 'i.id')
    .where('i.status', 'succeeded')
    .where('o.status', 'cancelled')
    .whereNull('r.id')
    .select('o.id');

const itemsOf = async (db: Knex, orderId: number) =>
  (await db('orderItems').where({ orderId }).orderBy('id')).map((i: Record<string, unknown>) => ({
    competitionId: Number(i.competitionId),
    numbers: JSON.parse(i.selectedNumbers as string) as number[],
  }));

describe.skipIf(engineUnavailable())(`checking out again with the sandbox on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  /** The card went through at the gateway, but the process died before fulfilment ran. */
  const captureOnly = (orderId: number) =>
    db('sandboxPaymentIntents')
      .where({ orderId, status: 'requires_payment_method' })
      .update({ status: 'succeeded', updatedAt: Date.now() });

  it('a paid order is fulfilled, not cancelled, and the new checkout is made of what is left', async () => {
    const a = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const b = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 150 });
    const { client } = await customer(server.url, a, b);
    await hold(client, a, [1, 2]);
    const first = await startCheckout(client);
    expect(await captureOnly(first.orderId)).toBe(1);

    await hold(client, b, [3]);
    const second = await startCheckout(client);
    expect(second).toMatchObject({ status: 'pending', amount: 1.5, subtotal: 1.5 });
    expect(second.orderId).not.toBe(first.orderId);
    expect(await itemsOf(db, second.orderId)).toEqual([{ competitionId: b, numbers: [3] }]);

    expect(await orderRow(db, first.orderId)).toMatchObject({ status: 'completed', refundReason: null });
    expect(await soldNumbers(db, a, first.orderId)).toEqual([1, 2]);
    expect(await capturedButCancelled(db)).toEqual([]);
    // The new payment works as ever.
    expect((await pay(client, second.clientSecret!)).status).toBe(200);
    expect(await soldNumbers(db, b, second.orderId)).toEqual([3]);
    await expectTicketInvariants(db);
  });

  it('when the paid order bought the whole cart, checking out again answers with that order', async () => {
    const id = await insertCompetition(db, { totalTickets: 30 });
    const { client, user } = await customer(server.url, id);
    await hold(client, id, [5, 6]);
    const first = await startCheckout(client);
    await captureOnly(first.orderId);

    const again = await startCheckout(client, { forceNew: true });
    expect(again).toMatchObject({ orderId: first.orderId, status: 'completed', clientSecret: null });
    expect(await soldNumbers(db, id, first.orderId)).toEqual([5, 6]);
    expect(await db('orders').where({ userId: user.id })).toHaveLength(1);
    expect(await capturedButCancelled(db)).toEqual([]);
  });

  it('an empty cart with nothing paid is still the empty-cart message', async () => {
    const { client } = await customer(server.url);
    const res = await client.post('/api/create-payment-intent', { forceNew: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(EMPTY_CART_MESSAGE);
  });

  it('racing: confirming the old payment while a new checkout starts never leaves a paid order cancelled', async () => {
    const rounds = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const id = await insertCompetition(db, { title: `Race ${i}`, totalTickets: 20 });
        const { client, user } = await customer(server.url, id);
        await hold(client, id, [1, 2]);
        const first = await startCheckout(client);
        return { id, client, user, first };
      }),
    );
    const results = await Promise.all(
      rounds.map(async (r) => {
        const [paid, restarted] = await Promise.all([
          pay(r.client, r.first.clientSecret!),
          r.client.post('/api/create-payment-intent', { forceNew: true }),
        ]);
        return { ...r, paid, restarted };
      }),
    );

    // The invariant, over every order: no captured payment on a cancelled order without a refund.
    expect(await capturedButCancelled(db)).toEqual([]);
    for (const r of results) {
      const old = await orderRow(db, r.first.orderId);
      const intent = await db('sandboxPaymentIntents').where({ orderId: r.first.orderId }).first();
      if (intent.status === 'succeeded') {
        // The money was taken: that order is the sale (fulfilled, never refunded as 'replaced').
        expect(old.status).toBe('completed');
        expect(r.paid.status).toBe(200);
        expect(await soldNumbers(db, r.id, r.first.orderId)).toEqual([1, 2]);
        // Nothing was left to pay for: the new checkout answers with the paid order, or (when the
        // sale had already emptied the cart before it began) with the empty cart.
        if (r.restarted.status === 200) {
          expect(r.restarted.body).toMatchObject({ orderId: r.first.orderId, status: 'completed' });
        } else {
          expect(r.restarted.status).toBe(400);
          expect(r.restarted.body.message).toBe(EMPTY_CART_MESSAGE);
        }
      } else {
        // Cancelled at the gateway first: the card could no longer be charged.
        expect(intent.status).toBe('canceled');
        expect(old.status).toBe('cancelled');
        expect(r.paid.status).toBe(409);
        expect(r.paid.body.message).toBe(CANCELLED_PAYMENT);
        expect(r.restarted.status).toBe(200);
        expect(r.restarted.body.status).toBe('pending');
      }
      expect(await db('sandboxRefunds').where({ paymentIntentId: intent.id })).toEqual([]);
    }
    await expectTicketInvariants(db);
  }, 60_000);

  it('a card payment under 30p is a 400 the customer can act on, and nothing is made', async () => {
    const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 10 });
    const { client, user } = await customer(server.url, id);
    await hold(client, id, [1, 2]);
    const res = await client.post('/api/create-payment-intent', {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: CARD_MINIMUM_MESSAGE, code: 'card_minimum' });
    expect(await db('orders').where({ userId: user.id })).toEqual([]);
    // 30p is enough.
    await hold(client, id, [3]);
    expect((await startCheckout(client)).amount).toBe(0.3);
  });
});

describe.skipIf(engineUnavailable())(`checking out again with Stripe on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let stripe: FakeStripe;
  useStripeTestServer((started, fake) => {
    server = started;
    stripe = fake;
    db = started.database.db;
  });

  async function deliver(type: string, intentId: string) {
    const payload = JSON.stringify(stripe.event(type, stripe.intents.get(intentId)!));
    const res = await fetch(`${server.url}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': stripe.sign(payload) },
      body: payload,
    });
    return res.status;
  }

  /** Stripe's captured payments whose order is cancelled and that have no refund: must be none. */
  async function capturedWithoutRefund() {
    const out: number[] = [];
    for (const pi of stripe.intents.values()) {
      if (pi.status !== 'succeeded') continue;
      const order = await db('orders').where({ paymentIntentId: pi.id }).first();
      if (order?.status === 'cancelled' && !stripe.refunds.some((r) => r.payment_intent === pi.id))
        out.push(order.id);
    }
    return out;
  }

  it('a payment Stripe took before its webhook arrived: the order is fulfilled, the rest checks out', async () => {
    const a = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const b = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 100 });
    const { client } = await customer(server.url, a, b);
    await hold(client, a, [4]);
    const first = await startCheckout(client);
    const firstIntent = stripe.intentForOrder(first.orderId)!;
    stripe.succeed(firstIntent.id);

    await hold(client, b, [9, 10]);
    const second = await startCheckout(client);
    expect(second).toMatchObject({ status: 'pending', amount: 2 });
    expect(await itemsOf(db, second.orderId)).toEqual([{ competitionId: b, numbers: [9, 10] }]);
    expect(await orderRow(db, first.orderId)).toMatchObject({ status: 'completed' });
    expect(await soldNumbers(db, a, first.orderId)).toEqual([4]);
    expect(await capturedWithoutRefund()).toEqual([]);

    // The late webhook changes nothing: no refund, still completed.
    expect(await deliver('payment_intent.succeeded', firstIntent.id)).toBe(200);
    expect(stripe.refunds).toEqual([]);
    expect(await orderRow(db, first.orderId)).toMatchObject({ status: 'completed' });
  });

  it('the card goes through in the very moment the app cancels the payment: the order is fulfilled', async () => {
    const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [7]);
    const first = await startCheckout(client);
    const pi = stripe.intentForOrder(first.orderId)!;
    stripe.beforeNext(
      (method, path) => method === 'POST' && path === `/v1/payment_intents/${pi.id}/cancel`,
      () => stripe.succeed(pi.id),
    );
    const again = await startCheckout(client, { forceNew: true });
    expect(again).toMatchObject({ orderId: first.orderId, status: 'completed' });
    expect(stripe.intents.get(pi.id)!.status).toBe('succeeded');
    expect(await soldNumbers(db, id, first.orderId)).toEqual([7]);
    expect(await capturedWithoutRefund()).toEqual([]);
    expect(stripe.refunds).toEqual([]);
  });

  it('an unpaid payment is cancelled at Stripe before its order is replaced', async () => {
    const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [8]);
    const first = await startCheckout(client);
    const pi = stripe.intentForOrder(first.orderId)!;
    const second = await startCheckout(client, { forceNew: true });
    expect(second.orderId).not.toBe(first.orderId);
    expect(stripe.intents.get(pi.id)!.status).toBe('canceled');
    expect(await orderRow(db, first.orderId)).toMatchObject({ status: 'cancelled' });
    const cancelAt = stripe.requests.findIndex((r) => r.path === `/v1/payment_intents/${pi.id}/cancel`);
    const createdAt = stripe.requests.findIndex(
      (r) => r.path === '/v1/payment_intents' && r.idempotencyKey === `order-${second.orderId}-intent`,
    );
    expect(cancelAt).toBeGreaterThan(-1);
    expect(cancelAt).toBeLessThan(createdAt);
  });

  it('Stripe down while replacing: 502, and the old order stays open (never cancelled blind)', async () => {
    const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const { client, user } = await customer(server.url, id);
    await hold(client, id, [11]);
    const first = await startCheckout(client);
    stripe.failNextRequests(10);
    const res = await client.post('/api/create-payment-intent', { forceNew: true });
    stripe.failNextRequests(0);
    expect(res.status).toBe(502);
    expect(await orderRow(db, first.orderId)).toMatchObject({ status: 'pending' });
    expect(await db('orders').where({ userId: user.id })).toHaveLength(1);
  });

  it('a card payment under 30p is a 400, and Stripe is never asked', async () => {
    const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 25 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [1]);
    const before = stripe.requests.length;
    const res = await client.post('/api/create-payment-intent', {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: CARD_MINIMUM_MESSAGE, code: 'card_minimum' });
    expect(stripe.requests.slice(before)).toEqual([]);
  });
});

describe.skipIf(engineUnavailable())(`racing credit-only checkouts on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('the losers are told nothing was charged, never that a payment was refunded', async () => {
    const customers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const id = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 100 });
        const c = await customer(server.url, id);
        await grantCredit(db, c.user.id, 800);
        await hold(c.client, id, [1, 2, 3, 4, 5]);
        return { ...c, id };
      }),
    );
    const answers = await Promise.all(
      customers.map((c) =>
        Promise.all(
          Array.from({ length: 3 }, () => c.client.post('/api/create-payment-intent', { useCredit: true })),
        ),
      ),
    );
    const refusals: string[] = [];
    for (const [i, c] of customers.entries()) {
      const mine = answers[i]!;
      const won = mine.filter((r) => r.status === 200);
      expect(won.length).toBeGreaterThanOrEqual(1);
      for (const r of won) expect(r.body).toMatchObject({ status: 'completed', provider: 'credit' });
      for (const r of mine.filter((x) => x.status !== 200)) {
        refusals.push(r.body.message);
        if (r.status === 400) {
          // The other checkout had already bought the cart.
          expect(r.body.message).toBe(EMPTY_CART_MESSAGE);
          continue;
        }
        expect(r.status).toBe(409);
        expect(r.body.message).not.toMatch(/refund/i);
        expect(r.body.message).toMatch(/nothing was charged/);
        expect(r.body.details).toMatchObject({ refunded: false, charged: false });
      }
      // One sale, one debit; the balance is its ledger.
      const orders = await db('orders').where({ userId: c.user.id });
      expect(orders.filter((o: { status: string }) => o.status === 'completed')).toHaveLength(1);
      for (const o of orders.filter((x: { status: string }) => x.status === 'cancelled')) {
        expect(o.refundReason).toBeNull();
        expect(o.notice).toMatch(/nothing was charged and no site credit was used/);
      }
      const credit = await creditState(db, c.user.id);
      expect(credit.balance).toBe(300);
      expect(credit.ledger).toBe(300);
      expect(credit.rows.filter((r) => r.type === 'debit')).toHaveLength(1);
      expect(await db('tickets').where({ competitionId: c.id, status: 'sold' })).toHaveLength(5);
    }
    // The race really happened somewhere (3 checkouts each, one of them wins).
    expect(refusals.length).toBe(10);
    await expectTicketInvariants(db);
  }, 60_000);
});
