import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { transactionStats } from '../../../api/platform/unitOfWork';
import { PASSWORD as CUSTOMER_PASSWORD, makeCustomers, signIn } from '../../support/fastCustomers';
import { insertCompetition } from '../../support/fixtures';
import { doubleSales } from '../../support/paymentInvariants';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Checkout's locks (docs/architecture.md#checkout-and-payments): the user row serialises one
// customer's checkouts, so no checkout locks a range of the orders table and first checkouts of
// different people never deadlock; an account deletion takes the same row, so a payment never
// starts for a deleted account (docs/security.md#payments-and-account-deletion).

const CUSTOMERS = 50;

describe.skipIf(engineUnavailable())(`checkout concurrency on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { HOLD_RATE_PER_ADDRESS: '100000', LOGIN_LIMIT_PER_ADDRESS: '100000' } },
  );

  it(`${CUSTOMERS} first checkouts at once all succeed at the first attempt: one order each, no number sold twice`, async () => {
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

  it('deleting an account and starting its payment serialise on the user row', async () => {
    const competitionId = await insertCompetition(db, { ticketPricePence: 500, totalTickets: 1000 });
    const ids = await makeCustomers(db, 20, 'leaving', 0);
    const shoppers = await Promise.all(
      ids.map((id, i) => signIn(server.url, id, `leaving${i}`, [competitionId])),
    );
    for (const [i, { client }] of shoppers.entries()) {
      const held = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [100 + i] });
      expect(held.status, held.text).toBe(201);
    }

    // Each customer at once: deletes the account, starts paying, and holds one more number.
    const raced = await Promise.all(
      shoppers.map(async ({ client }, i) => {
        const [deletion, payment] = await Promise.all([
          client.request('DELETE', '/api/account', { password: CUSTOMER_PASSWORD }),
          client.post('/api/create-payment-intent', {}),
          client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [200 + i] }),
        ]);
        return { deletion, payment };
      }),
    );

    const users = new Map(
      (
        (await db('users').whereIn('id', ids).select('id', 'deletedAt')) as Array<{
          id: number;
          deletedAt: number | null;
        }>
      ).map((u) => [Number(u.id), u.deletedAt]),
    );
    const orders = (await db('orders').whereIn('userId', ids).select('userId', 'status')) as Array<{
      userId: number;
      status: string;
    }>;
    for (const [i, { deletion, payment }] of raced.entries()) {
      const id = ids[i]!;
      const theirs = orders.filter((o) => Number(o.userId) === id);
      if (users.get(id)) {
        // Deleted first: the payment never started, nothing was ordered for the deleted account.
        expect(deletion.status, deletion.text).toBe(200);
        // Refused: signed out (401), its session's CSRF token gone with it (403), or the cart emptied (400).
        expect([400, 401, 403], payment.text).toContain(payment.status);
        expect(theirs).toEqual([]);
      } else {
        // The payment started first: deleting is refused while it is in progress (accountPrivacy.ts).
        expect(payment.status, payment.text).toBe(200);
        expect(deletion.status, deletion.text).toBe(409);
        expect(theirs.map((o) => o.status)).toEqual(['pending']);
      }
    }
  });

  it.skipIf(testEngine() !== 'mysql')(
    'a payment start that waited on the user row while the account was deleted starts nothing',
    async () => {
      const competitionId = await insertCompetition(db, { ticketPricePence: 500 });
      const [userId] = await makeCustomers(db, 1, 'waiting', 0);
      const { client } = await signIn(server.url, userId!, 'waiting0', [competitionId]);
      const held = await client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [7] });
      expect(held.status, held.text).toBe(201);

      // The deletion's side, by hand: the user row locked first, the account marked deleted while
      // the checkout (signed in a moment before) waits for that row; its cart rows are left.
      const { answer } = await db.transaction(async (trx) => {
        await trx('users').where({ id: userId }).forUpdate().first('id');
        const answer = client.post('/api/create-payment-intent', {});
        for (let waits = 0; ; waits++) {
          // The checkout's locking read of the user row, running (waiting) on another connection.
          // Its state there reads 'Statistics' on MariaDB 10.11 (the row is read while the query is
          // planned), and innodb_trx does not always show it as LOCK WAIT.
          const [rows] = await db.raw(
            "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE command <> 'Sleep' AND info LIKE ?",
            [`select % from \`users\` where \`id\` = ${Number(userId)} limit 1 for update`],
          );
          if (Number(rows[0].n) > 0) break;
          if (waits > 1000) throw new Error('the checkout never waited for the user row');
          await new Promise((r) => setTimeout(r, 10));
        }
        await trx('users').where({ id: userId }).update({ deletedAt: Date.now() });
        // Wrapped: the transaction must commit before the checkout can answer.
        return { answer };
      });
      const payment = await answer;

      expect(payment.status, payment.text).toBe(401);
      expect(await db('orders').where({ userId })).toEqual([]);
    },
  );
});
