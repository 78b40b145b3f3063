import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { CREDIT_CARD_INSTANT_WIN } from '../../../contract/instantWins';
import { customer, hold, orderRow, startCheckout } from '../../support/checkout';
import { type FakeStripe, useStripeTestServer } from '../../support/fakeStripe';
import { insertCompetition } from '../../support/fixtures';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import type { TestServer } from '../../support/testServer';

// Stripe payments finalised on the server with a ConfirmationToken: the card's funding is read
// before the PaymentIntent is confirmed, so the credit-card cap refuses before any money moves.

const CAP_MESSAGE = 'Credit card payments are limited to £250 a month. Use a debit card or site credit.';

describe.skipIf(engineUnavailable())(`Stripe server-side confirmation on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let stripe: FakeStripe;
  useStripeTestServer((started, fake) => {
    server = started;
    stripe = fake;
    db = started.database.db;
  });

  async function started(numbers: number[], ticketPricePence = 10_000) {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence });
    const shopper = await customer(server.url, competitionId);
    await hold(shopper.client, competitionId, numbers);
    const intent = await startCheckout(shopper.client);
    const order = await orderRow(db, intent.orderId);
    return { ...shopper, competitionId, intent, intentId: order.paymentIntentId as string };
  }

  const confirmCalls = (intentId: string) =>
    stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/payment_intents/${intentId}/confirm`,
    );

  it('a debit card is confirmed by the server and the order completes', async () => {
    const { client, intent, intentId } = await started([1, 2, 3]);
    const token = stripe.confirmationToken('debit');
    const res = await client.post('/api/payments/stripe/confirm', {
      orderId: intent.orderId,
      confirmationTokenId: token,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: 'succeeded', orderId: intent.orderId, clientSecret: null });
    expect(
      await db('orders').where({ id: intent.orderId }).first('status', 'cardFunding', 'cardFingerprint'),
    ).toEqual({
      status: 'completed',
      cardFunding: 'debit',
      // The card's fingerprint as Stripe reports it (docs/product.md#referrals: the same card).
      cardFingerprint: 'fpvisa4242',
    });
    expect(confirmCalls(intentId)).toHaveLength(1);
    expect(confirmCalls(intentId)[0]!.params).toMatchObject({
      confirmation_token: token,
      return_url: expect.stringMatching(new RegExp(`/confirmation/${intent.orderId}$`)),
    });
  });

  it('a credit card is refused for an instant-win competition before Stripe is asked; a debit card pays', async () => {
    const { client, competitionId, intent, intentId } = await started([1], 500);
    await db('instantWins').insert({
      competitionId,
      title: 'Prize',
      kind: 'prize',
      cashValuePence: 100,
      number: 9,
      createdAt: Date.now(),
    });
    const refused = await client.post('/api/payments/stripe/confirm', {
      orderId: intent.orderId,
      confirmationTokenId: stripe.confirmationToken('credit'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'credit_card_instant_win', message: CREDIT_CARD_INSTANT_WIN });
    expect(confirmCalls(intentId)).toHaveLength(0);
    const paid = await client.post('/api/payments/stripe/confirm', {
      orderId: intent.orderId,
      confirmationTokenId: stripe.confirmationToken('debit'),
    });
    expect(paid.status, paid.text).toBe(200);
  });

  it('a credit card over £250 this month is refused before Stripe is asked to take the money', async () => {
    const first = await started([1, 2]);
    const paid = await first.client.post('/api/payments/stripe/confirm', {
      orderId: first.intent.orderId,
      confirmationTokenId: stripe.confirmationToken('credit'),
    });
    expect(paid.status, paid.text).toBe(200);

    await hold(first.client, first.competitionId, [3]);
    const second = await startCheckout(first.client);
    const secondIntent = (await orderRow(db, second.orderId)).paymentIntentId as string;
    const refused = await first.client.post('/api/payments/stripe/confirm', {
      orderId: second.orderId,
      confirmationTokenId: stripe.confirmationToken('credit'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'credit_card_cap', message: CAP_MESSAGE });
    expect(confirmCalls(secondIntent)).toHaveLength(0);
    expect(stripe.intents.get(secondIntent)!.status).toBe('requires_payment_method');

    const debit = await first.client.post('/api/payments/stripe/confirm', {
      orderId: second.orderId,
      confirmationTokenId: stripe.confirmationToken('debit'),
    });
    expect(debit.status, debit.text).toBe(200);
  });

  it('a decline is a 402 on a failed order; 3-D Secure hands the browser the client secret', async () => {
    const declined = await started([4], 500);
    const res = await declined.client.post('/api/payments/stripe/confirm', {
      orderId: declined.intent.orderId,
      confirmationTokenId: stripe.confirmationToken('debit', 'declined'),
    });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ code: 'payment_failed', message: 'Your card was declined.' });
    expect((await orderRow(db, declined.intent.orderId)).status).toBe('failed');

    const secure = await started([5], 500);
    const action = await secure.client.post('/api/payments/stripe/confirm', {
      orderId: secure.intent.orderId,
      confirmationTokenId: stripe.confirmationToken('debit', 'requires_action'),
    });
    expect(action.status, action.text).toBe(200);
    expect(action.body).toEqual({
      status: 'requires_action',
      orderId: secure.intent.orderId,
      clientSecret: secure.intent.clientSecret,
    });
  });

  it("refuses an unknown token, someone else's order and bad input", async () => {
    const mine = await started([6], 500);
    const unknown = await mine.client.post('/api/payments/stripe/confirm', {
      orderId: mine.intent.orderId,
      confirmationTokenId: 'ctoken_doesnotexist',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Your card details could not be read. Please enter them again.');
    const other = await customer(server.url);
    const theirs = await other.client.post('/api/payments/stripe/confirm', {
      orderId: mine.intent.orderId,
      confirmationTokenId: stripe.confirmationToken('debit'),
    });
    expect(theirs.status).toBe(404);
    const bad = await mine.client.post('/api/payments/stripe/confirm', { orderId: mine.intent.orderId });
    expect(bad.status).toBe(400);
    expect((await orderRow(db, mine.intent.orderId)).status).toBe('pending');
  });

  it('a payment that arrives after the customer started a break is refunded, not sold', async () => {
    const { client, intent, intentId, competitionId } = await started([7], 500);
    expect((await client.post('/api/account/self-exclusion', { period: '24h' })).status).toBe(200);
    // The card went through at Stripe anyway (3-D Secure finished in another tab, say).
    stripe.succeed(intentId);
    const res = await client.request('PATCH', `/api/orders/${intent.orderId}`, { status: 'completed' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      message: 'You are taking a break from buying tickets, so the payment has been refunded.',
      details: { refunded: true },
    });
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    expect((await orderRow(db, intent.orderId)).status).toBe('cancelled');
    expect(await db('tickets').where({ competitionId, status: 'sold' })).toEqual([]);
  });
});
