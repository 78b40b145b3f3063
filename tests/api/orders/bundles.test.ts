import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { buyWithCard, put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { card, customer, grantCredit, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Multi-buy pricing (issue 36 §5, docs/product.md#multi-buy-pricing): the admin's bundles are
// checked against the ticket price, checkout charges the cheapest mix, the order keeps what each
// ticket cost, and a partial refund gives back exactly that.

const future = (days = 10) => new Date(Date.now() + days * 86_400_000).toISOString();

const valid = (overrides: Record<string, unknown> = {}) => ({
  title: 'Multi-buy prize',
  description: 'Five for four',
  ticketPrice: 1,
  totalTickets: 200,
  endDate: future(),
  status: 'active',
  details: { category: 'Cash' },
  ...overrides,
});

describe.skipIf(engineUnavailable())(`multi-buy pricing on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  /** A £1 competition with 5 for £4 and 10 for £7.50, made through the admin API. */
  async function bundled(overrides: Record<string, unknown> = {}) {
    const res = await admin.post(
      '/api/admin/competitions',
      valid({
        bundles: [
          { quantity: 10, price: 7.5 },
          { quantity: 5, price: 4 },
        ],
        ...overrides,
      }),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  }

  it('keeps bundles in pounds on the admin and public details, pence in the database', async () => {
    const id = await bundled();
    const offers = [
      { quantity: 5, price: 4 },
      { quantity: 10, price: 7.5 },
    ];
    expect((await admin.get(`/api/admin/competitions/${id}`)).body.bundles).toEqual(offers);
    expect((await admin.get(`/api/competitions/${id}`)).body.bundles).toEqual(offers);
    const row = await db('competitions').where({ id }).first('bundles');
    expect(JSON.parse(row.bundles)).toEqual([
      { quantity: 5, pricePence: 400 },
      { quantity: 10, pricePence: 750 },
    ]);
    // A duplicate keeps them.
    const copy = await admin.post(`/api/admin/competitions/${id}/duplicate`);
    expect(copy.status, copy.text).toBe(201);
    expect((await admin.get(`/api/admin/competitions/${copy.body.id}`)).body.bundles).toEqual(offers);
    // [] removes them; a competition without any says [].
    const cleared = await put(admin, `/api/admin/competitions/${id}`, { bundles: [] });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.bundles).toEqual([]);
    expect((await db('competitions').where({ id }).first('bundles')).bundles).toBeNull();
  });

  it('refuses bundles that are no bargain with a 400, changing nothing', async () => {
    const count = async () => Number((await db('competitions').count({ n: '*' }).first())?.n);
    const before = await count();
    const refusals: Array<[unknown, string]> = [
      [[{ quantity: 1, price: 0.5 }], 'Bundle quantity must be a whole number of at least 2'],
      [[{ quantity: 5, price: 5 }], 'The 5-ticket bundle must cost less than 5 single tickets (£5.00)'],
      [
        [
          { quantity: 5, price: 4 },
          { quantity: 10, price: 8.5 },
        ],
        'The 10-ticket bundle must not cost more per ticket than the 5-ticket bundle',
      ],
      [
        [2, 3, 4, 5, 6].map((quantity) => ({ quantity, price: quantity * 0.9 })),
        'A competition can have at most 4 bundles',
      ],
      [
        [
          { quantity: 5, price: 4 },
          { quantity: 5, price: 3 },
        ],
        'Each bundle must be for a different number of tickets',
      ],
      [[{ quantity: 5, price: 3.999 }], 'Bundle price must be in whole pence'],
    ];
    for (const [bundles, message] of refusals) {
      const res = await admin.post('/api/admin/competitions', valid({ bundles }));
      expect(res.status, JSON.stringify(bundles)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await count()).toBe(before);

    // An update is checked against the price it leaves: a cheaper ticket makes 5 for £4 no bargain.
    const id = await bundled();
    const row = async () => db('competitions').where({ id }).first('bundles', 'ticketPricePence');
    const kept = await row();
    const cheaper = await put(admin, `/api/admin/competitions/${id}`, { ticketPrice: 0.75 });
    expect(cheaper.status).toBe(400);
    expect(cheaper.body.message).toBe('The 5-ticket bundle must cost less than 5 single tickets (£3.75)');
    const worse = await put(admin, `/api/admin/competitions/${id}`, { bundles: [{ quantity: 3, price: 3 }] });
    expect(worse.status).toBe(400);
    expect(await row()).toEqual(kept);
  });

  it('carries the bundles in the cart and charges the cheapest mix: 5 tickets of £1 cost 400 pence', async () => {
    const id = await bundled();
    const { client } = await customer(server.url, id);
    // Two cart items of the same competition make one bundle together.
    await hold(client, id, [1, 2, 3]);
    await hold(client, id, [4, 5]);
    const cart = await client.get('/api/cart');
    expect(cart.body[0].competition.bundles).toEqual([
      { quantity: 5, price: 4 },
      { quantity: 10, price: 7.5 },
    ]);
    const intent = await startCheckout(client, { version: 5 });
    expect(intent).toMatchObject({ subtotal: 4, amount: 4 });
    const sandbox = await db('sandboxPaymentIntents').where({ orderId: intent.orderId }).first();
    expect(Number(sandbox.amountPence)).toBe(400);
    const lines = await db('orderItems').where({ orderId: intent.orderId }).orderBy('id');
    expect(lines.map((l: { paidPence: number }) => Number(l.paidPence))).toEqual([240, 160]);
    expect(lines.map((l: { ticketCosts: string }) => JSON.parse(l.ticketCosts))).toEqual([
      [80, 80, 80],
      [80, 80],
    ]);

    // 7 tickets: 5 for £4 and two singles, £6.00; 12: 10 for £7.50 and two singles.
    await hold(client, id, [6, 7]);
    expect(await startCheckout(client, { version: 5 })).toMatchObject({ subtotal: 6, amount: 6 });
    await hold(client, id, [8, 9, 10, 11, 12]);
    expect(await startCheckout(client, { version: 5 })).toMatchObject({ subtotal: 9.5, amount: 9.5 });
  });

  it('counts the bundle price towards the £5 credit minimum and the card minimum', async () => {
    // Six £1 tickets at 5 for £4 cost £5.00: credit may be used; five (£4.00) may not.
    const id = await bundled();
    const { client, user } = await customer(server.url, id);
    await grantCredit(db, user.id, 380);
    await hold(client, id, [1, 2, 3, 4, 5]);
    const tooSmall = await client.post('/api/create-payment-intent', { version: 5, useCredit: true });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.body.message).toBe('Minimum spend of £5.00 required to use site credit');
    await hold(client, id, [6]);
    const paid = await startCheckout(client, { version: 5, useCredit: true });
    expect(paid).toMatchObject({ subtotal: 5, creditApplied: 3.8, amount: 1.2 });

    // Two 20p tickets are 40p singly but 25p as '2 for £0.25': under the card's 30p minimum.
    const cheap = await bundled({ ticketPrice: 0.2, bundles: [{ quantity: 2, price: 0.25 }] });
    const other = await customer(server.url, cheap);
    await hold(other.client, cheap, [1, 2]);
    const small = await other.client.post('/api/create-payment-intent', { version: 5 });
    expect(small.status).toBe(400);
    expect(small.body.message).toBe('Card payments start at £0.30: add a ticket or pay with site credit');
    await hold(other.client, cheap, [3]);
    expect(await startCheckout(other.client, { version: 5 })).toMatchObject({ amount: 0.45 });
  });

  it('counts the bundle price towards the spend limit and the credit-card cap', async () => {
    // Five £60 tickets cost £300 singly and £250 as a bundle: exactly both limits.
    const id = await bundled({ ticketPrice: 60, bundles: [{ quantity: 5, price: 250 }] });
    const { client } = await customer(server.url, id);
    const limit = await put(client, '/api/account/limits', { monthlySpendLimitPence: 25_000 });
    expect(limit.status, limit.text).toBe(200);
    await hold(client, id, [1, 2, 3, 4, 5]);
    const intent = await startCheckout(client, { version: 5 });
    expect(intent.amount).toBe(250);
    // 4242… is a credit card: £250 is within the £250 cap.
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card(),
    });
    expect(paid.status, paid.text).toBe(200);
    expect((await client.get('/api/account/limits')).body.spentThisMonthPence).toBe(25_000);
    // Nothing is left under either: one more ticket is refused at checkout.
    await hold(client, id, [6]);
    const over = await client.post('/api/create-payment-intent', { version: 5 });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('spend_limit');
  });

  it('refunds some tickets of a bundle at what they cost, and the order shows what was paid', async () => {
    const id = await bundled({ bundles: [{ quantity: 3, price: 2 }] });
    const { client } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, id, [10, 20, 30, 40]);
    // 3 for £2.00 (67p, 67p, 66p) and a single £1: £3.00.
    const order = await client.get(`/api/orders/${orderId}`);
    expect(order.status, order.text).toBe(200);
    expect(order.body).toMatchObject({ subtotal: 3, total: 3 });
    expect(order.body.items[0]).toMatchObject({
      quantity: 4,
      ticketPrice: 1,
      lineTotal: 3,
      saved: 1,
      numbers: [10, 20, 30, 40],
      ticketCosts: [0.67, 0.67, 0.66, 1],
    });
    const res = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
      competitionId: id,
      numbers: [10, 30],
      reason: 'Bought twice',
      refundTo: 'card',
    });
    expect(res.status, res.text).toBe(200);
    // 10 cost 67p and 30 cost 66p: £1.33 goes back, not 2 × £1.
    expect(res.body).toMatchObject({ refund: 'refunded', amount: 1.33, numbers: [10, 30] });
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const refunds = await db('sandboxRefunds').where({ paymentIntentId: intent });
    expect(refunds.map((r: { amountPence: number }) => Number(r.amountPence))).toEqual([133]);
    // My Entries: the two tickets left cost 67p and £1.
    const entries = await client.get('/api/user-entries');
    expect(entries.body).toEqual([expect.objectContaining({ orderId, ticketNumbers: [20, 40], paid: 1.67 })]);
    // Cancelling the rest refunds only what is left of the card payment: £1.67.
    const cancelled = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'The rest' });
    expect(cancelled.status, cancelled.text).toBe(200);
    const all = await db('sandboxRefunds').where({ paymentIntentId: intent }).orderBy('createdAt');
    expect(all.map((r: { amountPence: number }) => Number(r.amountPence))).toEqual([133, 167]);
  });

  it('leaves a competition without bundles at quantity × ticket price', async () => {
    const id = await insertCompetition(db, { ticketPricePence: 150 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [1, 2, 3, 4, 5]);
    expect(await startCheckout(client, { version: 5 })).toMatchObject({ subtotal: 7.5 });
  });
});
