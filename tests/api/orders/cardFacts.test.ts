import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { type FakeStripe, useStripeTestServer } from '../../support/fakeStripe';
import { insertCompetition } from '../../support/fixtures';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Issue 39 §5: the card that paid an order (brand, funding, last four digits, from the gateway) is
// in the order's JSON for its owner and the admin, and named "Visa Debit ••5556", never
// "Credit Card" for a debit card.

const VISA_DEBIT = '4000 0566 5566 5556';
const MASTERCARD_CREDIT = '5555 5555 5555 4444';

/** The customer's and the admin's view of one order. */
async function bothViews(
  serverUrl: string,
  client: { get(path: string): Promise<{ body: unknown }> },
  orderId: number,
) {
  const { client: admin } = await signedInAdmin(serverUrl);
  const mine = (await client.get(`/api/orders/${orderId}`)).body;
  const theirs = (await admin.get(`/api/admin/orders/${orderId}`)).body;
  return [mine, theirs];
}

describe.skipIf(engineUnavailable())(`card facts from the sandbox's test cards on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function checkout() {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 200 });
    const shopper = await customer(server.url, competitionId);
    await hold(shopper.client, competitionId, [4]);
    return { ...shopper, intent: await startCheckout(shopper.client) };
  }

  it('a Visa debit test card: card { visa, debit, 5556 } and "Visa Debit ••5556" for owner and admin', async () => {
    const { client, intent } = await checkout();
    // Not paid yet: no card, and no claim about which kind.
    const before = (await client.get(`/api/orders/${intent.orderId}`)).body;
    expect(before).toMatchObject({ status: 'pending', card: null, paymentMethod: 'Card' });
    // A declined card leaves nothing of itself on the order.
    const declined = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card({ cardNumber: '4000 0000 0000 0002' }),
    });
    expect(declined.status).toBe(402);
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card({ cardNumber: VISA_DEBIT }),
    });
    expect(paid.status, paid.text).toBe(200);
    for (const view of await bothViews(server.url, client, intent.orderId)) {
      expect(view).toMatchObject({
        status: 'completed',
        card: { brand: 'visa', funding: 'debit', last4: '5556' },
        paymentMethod: 'Visa Debit ••5556',
      });
    }
    expect(await db('orders').where({ id: intent.orderId }).first('cardBrand', 'cardLast4')).toEqual({
      cardBrand: 'visa',
      cardLast4: '5556',
    });
  });

  it('an instant-win basket is told "debit cards only" when the payment starts, before any card', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 200 });
    await db('instantWins').insert({
      competitionId,
      title: 'Prize',
      kind: 'prize',
      cashValuePence: 100,
      number: 9,
      createdAt: Date.now(),
    });
    const { client } = await customer(server.url, competitionId);
    await hold(client, competitionId, [1]);
    expect(await startCheckout(client)).toMatchObject({ status: 'pending', debitCardsOnly: true });
    const plain = await checkout();
    expect(plain.intent.debitCardsOnly).toBe(false);
  });

  it('a checkout replaced by a newer one is cancelled, never paid, with no refund and no card (so "Payment not completed")', async () => {
    const { client, intent } = await checkout();
    const newer = await startCheckout(client, { forceNew: true });
    expect(newer.orderId).not.toBe(intent.orderId);
    const old = (await client.get(`/api/orders/${intent.orderId}`)).body;
    expect(old).toMatchObject({ status: 'cancelled', paidAt: null, refund: null, card: null });
  });

  it('a Mastercard credit test card: "Mastercard Credit ••4444", in the order list too', async () => {
    const { client, intent } = await checkout();
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card({ cardNumber: MASTERCARD_CREDIT }),
    });
    expect(paid.status, paid.text).toBe(200);
    const expected = {
      card: { brand: 'mastercard', funding: 'credit', last4: '4444' },
      paymentMethod: 'Mastercard Credit ••4444',
    };
    for (const view of await bothViews(server.url, client, intent.orderId))
      expect(view).toMatchObject(expected);
    const list = (await client.get('/api/orders')).body as Array<{ id: number }>;
    expect(list.find((o) => o.id === intent.orderId)).toMatchObject(expected);
  });
});

describe.skipIf(engineUnavailable())(`card facts from Stripe's card details on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let stripe: FakeStripe;
  useStripeTestServer((started, fake) => {
    server = started;
    stripe = fake;
    db = started.database.db;
  });

  it("records the ConfirmationToken's card (brand, funding, last4) and shows it to owner and admin", async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 500 });
    const { client } = await customer(server.url, competitionId);
    await hold(client, competitionId, [1, 2]);
    const intent = await startCheckout(client);
    // A declined credit card first, then the debit card that pays: the order names the one that paid.
    const declined = await client.post('/api/payments/stripe/confirm', {
      orderId: intent.orderId,
      confirmationTokenId: stripe.confirmationToken('credit', 'declined', {
        brand: 'mastercard',
        last4: '4444',
      }),
    });
    expect(declined.status).toBe(402);
    expect((await client.get(`/api/orders/${intent.orderId}`)).body).toMatchObject({ card: null });
    const paid = await client.post('/api/payments/stripe/confirm', {
      orderId: intent.orderId,
      confirmationTokenId: stripe.confirmationToken('debit', 'succeeded', { brand: 'visa', last4: '5556' }),
    });
    expect(paid.status, paid.text).toBe(200);
    for (const view of await bothViews(server.url, client, intent.orderId)) {
      expect(view).toMatchObject({
        status: 'completed',
        paymentProvider: 'stripe',
        card: { brand: 'visa', funding: 'debit', last4: '5556' },
        paymentMethod: 'Visa Debit ••5556',
      });
    }
  });
});
