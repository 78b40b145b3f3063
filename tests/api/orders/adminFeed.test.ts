import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredClient } from '../../support/accounts';
import { buyWithCard, signedInAdmin } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer, useTestServer } from '../../support/testServer';

describe.skipIf(engineUnavailable())(
  `admin live feed and the hosted-page signature on ${testEngine()}`,
  () => {
    let server: TestServer;
    let db: Knex;
    const sockets: TestSocket[] = [];
    useTestServer(
      (s) => {
        server = s;
        db = s.database.db;
      },
      {
        beforeStop: () => {
          for (const s of sockets) s.disconnect();
        },
      },
    );
    const socketOf = async (cookie: string) => {
      const s = await connectSocket(server.url, cookie);
      sockets.push(s);
      return s;
    };

    it('pushes admin:order (created, then paid) and admin:stats to admins only', async () => {
      const id = await insertCompetition(db, { totalTickets: 50 });
      const { client: admin } = await signedInAdmin(server.url);
      const { client: customer } = await registeredClient(server.url);
      const adminSocket = await socketOf(admin.cookieHeader);
      const customerSocket = await socketOf(customer.cookieHeader);
      const guestSocket = await socketOf('');
      const orders = collect(adminSocket, 'admin:order');
      const stats = collect(adminSocket, 'admin:stats');
      const leakedToCustomer = collect(customerSocket, 'admin:order');
      const leakedToGuest = collect(guestSocket, 'admin:order');
      const statsToCustomer = collect(customerSocket, 'admin:stats');

      const orderId = await buyWithCard(customer, id, [7, 8]);
      await waitFor(() => orders.length >= 2 && stats.length >= 2, 3000, 'admin:order created and paid');
      expect(orders.map((o) => o.change)).toEqual(['created', 'paid']);
      const paid = orders[1]!.order;
      expect(paid).toMatchObject({
        id: orderId,
        orderNumber: `ORD-${String(orderId).padStart(10, '0')}`,
        status: 'completed',
      });
      expect(paid.items[0]).toMatchObject({ competitionId: id, numbers: [7, 8] });
      expect(paid.user?.email).toMatch(/@example\.co\.uk$/);

      const counts = async () => ({
        userCount: Number((await db('users').whereNull('deletedAt').count({ n: '*' }).first())!.n),
        competitionCount: Number((await db('competitions').count({ n: '*' }).first())!.n),
        orderCount: Number((await db('orders').count({ n: '*' }).first())!.n),
        reconciledPaymentCount: 0,
      });
      expect(stats[stats.length - 1]).toEqual(await counts());

      // The admin socket has had every push; one sent to the others went out with it, so it would
      // be on them by the end of a round trip on each.
      await barrier(customerSocket);
      await barrier(guestSocket);
      expect(leakedToCustomer).toEqual([]);
      expect(leakedToGuest).toEqual([]);
      expect(statsToCustomer).toEqual([]);
    });

    it('answers the hosted-page signature call with 503 when that provider is not configured, 401 signed out', async () => {
      const anonymous = new TestClient(server.url);
      await anonymous.fetchCsrfToken();
      const body = { amount: 1299, orderRef: 'ORDER-1', transactionUnique: 'TXN-1' };
      expect((await anonymous.post('/api/generate-cashflows-signature', body)).status).toBe(401);
      const { client } = await registeredClient(server.url);
      const res = await client.post('/api/generate-cashflows-signature', body);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Payment provider not configured');
    });
  },
);

describe.skipIf(engineUnavailable())(`the hosted-page signature when configured, on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      CASHFLOWS_MERCHANT_ID: '100001',
      CASHFLOWS_SIGNATURE_KEY: 'Circle4Take40Idea',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('signs the form for a signed-in customer and refuses bad input with field messages', async () => {
    const { client } = await registeredClient(server.url);
    const res = await client.post('/api/generate-cashflows-signature', {
      amount: 1299,
      orderRef: 'ORDER-42',
      transactionUnique: 'TXN-abc-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      merchantID: '100001',
      amount: 1299,
      currency: 'GBP',
      orderRef: 'ORDER-42',
      transactionUnique: 'TXN-abc-1',
      redirectURL: `${server.url}/payment-success`,
      test: true,
    });
    expect(res.body.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(res.body.fields.signature).toBe(res.body.signature);

    for (const bad of [
      { amount: 0, orderRef: 'ORDER-1', transactionUnique: 'TXN-1' },
      { amount: 12.5, orderRef: 'ORDER-1', transactionUnique: 'TXN-1' },
      { amount: 100, orderRef: 'order 1', transactionUnique: 'TXN-1' },
      { amount: 100, orderRef: 'ORDER-1', transactionUnique: '' },
    ]) {
      const refused = await client.post('/api/generate-cashflows-signature', bad);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/amount|orderRef|transactionUnique/);
    }
  });
});
