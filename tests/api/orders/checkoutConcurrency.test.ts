import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { transactionStats } from '../../../api/platform/unitOfWork';
import { makeCustomers, signIn } from '../../support/fastCustomers';
import { insertCompetition } from '../../support/fixtures';
import { doubleSales } from '../../support/paymentInvariants';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Many new customers starting their first checkout at once (docs/security.md#checkout-locking):
// the user row serialises one customer's checkouts, so no checkout locks a range of the orders
// table, and first checkouts of different people never wait for, nor deadlock with, each other.

const CUSTOMERS = 50;

describe.skipIf(engineUnavailable())(`${CUSTOMERS} first checkouts at once on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { HOLD_RATE_PER_ADDRESS: '100000', LOGIN_LIMIT_PER_ADDRESS: '100000' } },
  );

  it('every one succeeds at the first attempt: one order each, no number sold twice', async () => {
    // £5 a ticket: the least a credit order may spend, and each customer's £5 credit pays it.
    const competitionId = await insertCompetition(db, { ticketPricePence: 500, totalTickets: 1000 });
    const ids = await makeCustomers(db, CUSTOMERS, 'first', 500);
    const shoppers = await Promise.all(
      ids.map((id, i) => signIn(server.url, id, `first${i}`, [competitionId])),
    );
    for (const [i, { client }] of shoppers.entries()) {
      const held = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [i + 1] });
      expect(held.status, held.text).toBe(201);
    }

    // Half pay by card (a pending order and a payment intent), half wholly by credit (sold at once).
    const retriesBefore = transactionStats.deadlockRetries;
    const answers = await Promise.all(
      shoppers.map(({ client }, i) =>
        client.post('/api/create-payment-intent', i % 2 ? { useCredit: true } : {}),
      ),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(transactionStats.deadlockRetries - retriesBefore, 'deadlocks retried').toBe(0);

    const orders = (await db('orders').whereIn('userId', ids).select('userId', 'status')) as Array<{
      userId: number;
      status: string;
    }>;
    expect(orders.map((o) => Number(o.userId)).sort((a, b) => a - b)).toEqual(ids);
    expect(orders.filter((o) => o.status === 'completed')).toHaveLength(CUSTOMERS / 2);
    expect(orders.filter((o) => o.status === 'pending')).toHaveLength(CUSTOMERS / 2);
    expect(await doubleSales(db)).toEqual([]);
    const sold = (await db('tickets').where({ competitionId, status: 'sold' }).pluck('number')) as number[];
    expect(sold.map(Number).sort((a, b) => a - b)).toEqual(
      Array.from({ length: CUSTOMERS / 2 }, (_, k) => 2 * k + 2),
    );
  }, 120_000); // 50 sign-ins and holds take a while on a busy 2-core machine
});
