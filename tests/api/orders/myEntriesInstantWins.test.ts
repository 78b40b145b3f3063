import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// My Entries marks the purchase whose number won an instant prize (docs/product.md, My Entries).

const DEBIT = '4000 0566 5566 5556';

describe.skipIf(engineUnavailable())(`My Entries instant wins on ${testEngine()}`, () => {
  let server: TestServer;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    admin = (await signedInAdmin(s.url)).client;
  });

  it('lists the instant prize with the purchase that won it, and nothing for other purchases', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Instant prizes',
      ticketPrice: 1,
      totalTickets: 100,
      endDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      details: { category: 'Cash' },
      instantWins: [{ title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [7] }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const { client } = await customer(server.url, id);
    const buy = async (numbers: number[]) => {
      await hold(client, id, numbers);
      const order = await startCheckout(client);
      const paid = await client.post('/api/payments/sandbox/confirm', {
        clientSecret: order.clientSecret,
        ...card({ cardNumber: DEBIT }),
      });
      expect(paid.status, paid.text).toBe(200);
      return order.orderId;
    };
    const losing = await buy([3]);
    const winning = await buy([7, 8]);

    const res = await client.get('/api/user-entries');
    expect(res.status).toBe(200);
    const byOrder = new Map(
      (res.body as Array<{ orderId: number; instantWins: unknown[] }>).map((e) => [e.orderId, e.instantWins]),
    );
    expect(byOrder.get(winning)).toEqual([
      {
        id: expect.any(Number),
        competitionId: id,
        number: 7,
        title: '£5 site credit',
        kind: 'credit',
        amountPence: 500,
        description: null,
      },
    ]);
    expect(byOrder.get(losing)).toEqual([]);
  });
});
