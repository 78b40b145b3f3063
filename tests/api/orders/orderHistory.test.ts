import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatOrderNumber } from '../../../contract/checkout';
import { put, signedInAdmin } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { clearPromoterDetails, TEST_PROMOTER } from '../../support/promoter';
import { barrier, collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// My Account's order history and receipts (#17), the confirmation's real draw date and the live
// order:updated push to the customer's own room (#16.6). Owner-only throughout.

const DAY = 86_400_000;

describe.skipIf(engineUnavailable())(`order history, receipts and live orders on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
  });

  const pay = (client: TestClient, clientSecret: string, overrides: Record<string, unknown> = {}) =>
    client.post('/api/payments/sandbox/confirm', { clientSecret, ...card(overrides) });

  /** Holds the numbers and pays by the good test card; the order id. */
  async function buy(client: TestClient, competitionId: number, numbers: number[]) {
    await hold(client, competitionId, numbers);
    const intent = await startCheckout(client);
    expect((await pay(client, intent.clientSecret!)).status).toBe(200);
    return intent.orderId;
  }

  it('lists only the customer’s own orders, newest first, with items, numbers, payment, status, refund and draw date', async () => {
    const endDate = Date.now() + 12 * DAY;
    const id = await insertCompetition(db, { title: 'Hamper', ticketPricePence: 150, endDate });
    const other = await insertCompetition(db, { title: 'Bike', endDate: endDate + DAY });
    const alice = await customer(server.url, id, other);
    const bob = await customer(server.url, id);
    const first = await buy(alice.client, id, [3, 7]);
    const second = await buy(alice.client, other, [1]);
    await buy(bob.client, id, [9]);
    // An unpaid order is history too.
    await hold(alice.client, id, [20]);
    const unpaid = (await startCheckout(alice.client)).orderId;
    // The admin refunds the first.
    const { client: admin } = await signedInAdmin(server.url);
    expect(
      (await admin.post(`/api/admin/orders/${first}/cancel`, { reason: 'Cancelled in a test' })).status,
    ).toBe(200);

    const res = await alice.client.get('/api/orders');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.map((o: { id: number }) => o.id)).toEqual([unpaid, second, first]);
    const [pending, paid, refunded] = res.body;
    expect(pending).toMatchObject({ status: 'pending', paidAt: null });
    expect(paid).toMatchObject({
      orderNumber: formatOrderNumber(second),
      status: 'completed',
      paymentMethod: 'Visa Credit ••4242',
      card: { brand: 'visa', funding: 'credit', last4: '4242' },
      refund: null,
      items: [
        {
          competitionId: other,
          title: 'Bike',
          numbers: [1],
          drawDate: new Date(endDate + DAY).toISOString(),
        },
      ],
    });
    expect(refunded).toMatchObject({
      status: 'cancelled',
      total: 3,
      refund: { amount: 3, reason: expect.any(String), refundedAt: expect.any(String) },
      items: [
        {
          title: 'Hamper',
          quantity: 2,
          ticketPrice: 1.5,
          numbers: [3, 7],
          drawDate: new Date(endDate).toISOString(),
        },
      ],
    });

    // Bob sees his one order; a visitor is asked to sign in.
    const bobs = await bob.client.get('/api/orders');
    expect(bobs.body).toHaveLength(1);
    expect(bobs.body[0].items[0].numbers).toEqual([9]);
    const visitor = new TestClient(server.url);
    expect((await visitor.get('/api/orders')).status).toBe(401);
  });

  it('the confirmation (GET /api/orders/:id) carries the competition’s real end date as the draw date', async () => {
    const endDate = Date.now() + 23 * DAY;
    const id = await insertCompetition(db, { endDate });
    const { client } = await customer(server.url, id);
    const orderId = await buy(client, id, [5]);
    const res = await client.get(`/api/orders/${orderId}`);
    expect(res.body.items[0].drawDate).toBe(new Date(endDate).toISOString());
  });

  it('prints a receipt of a paid order for its owner only, with the operator from the site settings', async () => {
    const id = await insertCompetition(db, { title: 'Telly', ticketPricePence: 250 });
    const { client } = await customer(server.url, id);
    const orderId = await buy(client, id, [11, 12]);

    // Before the admin sets the operator: the site's name, no address.
    await clearPromoterDetails(db);
    const before = await client.get(`/api/orders/${orderId}/receipt`);
    expect(before.status).toBe(200);
    expect(before.body.seller).toEqual({
      name: 'Westcountry Prizes',
      address: null,
      companyNumber: null,
      phone: null,
      email: null,
      supportEmail: 'support@westcountryprizes.co.uk',
    });

    const { client: admin } = await signedInAdmin(server.url);
    const operator = {
      operatorName: 'Westcountry Prizes Ltd',
      operatorAddress: '1 Quay St\nTruro TR1 2AA',
      companyNumber: '01234567',
      phone: '01632 960111',
      email: 'hello@example.com',
    };
    const saved = await put(admin, '/api/admin/settings/operator', operator);
    expect(saved.status, saved.text).toBe(200);
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual(operator);
    expect(await db('auditLog').where({ action: 'setting.operator' })).toHaveLength(1);

    const receipt = await client.get(`/api/orders/${orderId}/receipt`);
    expect(receipt.body).toMatchObject({
      order: {
        id: orderId,
        status: 'completed',
        subtotal: 5,
        items: [{ title: 'Telly', quantity: 2, numbers: [11, 12], lineTotal: 5 }],
      },
      seller: {
        name: operator.operatorName,
        address: operator.operatorAddress,
        companyNumber: '01234567',
        phone: '01632 960111',
        email: 'hello@example.com',
      },
      vatNote: 'No VAT is charged on competition entries.',
    });

    // Anyone else, the admin included, gets the same 404 as for a missing order.
    const stranger = await customer(server.url);
    expect((await stranger.client.get(`/api/orders/${orderId}/receipt`)).status).toBe(404);
    expect((await admin.get(`/api/orders/${orderId}/receipt`)).status).toBe(404);
    expect((await client.get('/api/orders/999999/receipt')).status).toBe(404);
    expect((await client.get('/api/orders/abc/receipt')).status).toBe(400);
    expect((await new TestClient(server.url).get(`/api/orders/${orderId}/receipt`)).status).toBe(401);

    // An unpaid order has no receipt yet.
    await hold(client, id, [30]);
    const unpaid = (await startCheckout(client)).orderId;
    const refused = await client.get(`/api/orders/${unpaid}/receipt`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A receipt is available once the order has been paid.');
  });

  it('refuses operator settings that are empty or too long, and changes nothing', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const current = (await admin.get('/api/admin/settings/operator')).body;
    for (const body of [
      { ...TEST_PROMOTER, operatorName: '  ' },
      { ...TEST_PROMOTER, operatorAddress: '' },
      { ...TEST_PROMOTER, operatorName: 'x'.repeat(201) },
      { operatorName: 'Shop', operatorAddress: 'Somewhere' },
    ]) {
      const res = await put(admin, '/api/admin/settings/operator', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.get('/api/admin/settings/operator')).body).toEqual(current);
  });

  it('pushes order:updated to the owner’s own tabs when the payment settles or is refunded, and to no one else', async () => {
    const id = await insertCompetition(db);
    const alice = await customer(server.url, id);
    const bob = await customer(server.url, id);
    const aliceTab = await connectSocket(server.url, alice.client.cookieHeader);
    const bobTab = await connectSocket(server.url, bob.client.cookieHeader);
    const guestTab = await connectSocket(server.url);
    sockets.push(aliceTab, bobTab, guestTab);
    const aliceSees = collect(aliceTab, 'order:updated');
    const bobSees = collect(bobTab, 'order:updated');
    const guestSees = collect(guestTab, 'order:updated');

    await hold(alice.client, id, [2]);
    const intent = await startCheckout(alice.client);
    // A declined card, then a good one.
    expect(
      (await pay(alice.client, intent.clientSecret!, { cardNumber: '4000 0000 0000 0002' })).status,
    ).toBe(402);
    await waitFor(() => aliceSees.length === 1, 2000, 'failed push');
    expect(aliceSees[0]).toMatchObject({
      change: 'failed',
      order: { id: intent.orderId, status: 'failed', notice: 'Your card was declined.' },
    });
    expect((await pay(alice.client, intent.clientSecret!)).status).toBe(200);
    await waitFor(() => aliceSees.length === 2, 2000, 'paid push');
    expect(aliceSees[1]).toMatchObject({
      change: 'paid',
      order: { id: intent.orderId, status: 'completed', items: [{ numbers: [2] }] },
    });

    const { client: admin } = await signedInAdmin(server.url);
    expect(
      (await admin.post(`/api/admin/orders/${intent.orderId}/cancel`, { reason: 'Cancelled in a test' }))
        .status,
    ).toBe(200);
    await waitFor(() => aliceSees.some((e) => e.order.status === 'cancelled'), 2000, 'refund push');
    expect(aliceSees.at(-1)?.order.refund).toMatchObject({ amount: 1 });

    // Alice's tab has had each push; one sent to anyone else went out with it, so it would be on
    // the other tabs by the end of a round trip on each.
    await barrier(bobTab);
    await barrier(guestTab);
    expect(bobSees).toEqual([]);
    expect(guestSees).toEqual([]);
  });
});
