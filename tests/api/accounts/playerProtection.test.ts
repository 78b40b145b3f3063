import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { mayReceiveMarketing } from '../../../api/platform/email/consent';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Player protection (DCMS prize-draw code 2025): monthly spend limits, time-outs and
// self-exclusion, and the operator's harm report.

const DEBIT = '4000 0566 5566 5556';
const HOUR = 60 * 60 * 1000;

describe.skipIf(engineUnavailable())(`player protection on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const put = (c: TestClient, path: string, body: unknown) => c.request('PUT', path, body);

  /** Holds `numbers`, checks out and pays with a debit card; the answer of the confirm. */
  async function buy(client: TestClient, competitionId: number, numbers: number[]) {
    await hold(client, competitionId, numbers);
    const intent = await startCheckout(client);
    return client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card({ cardNumber: DEBIT }),
    });
  }

  describe('spend limits', () => {
    it('a lower limit applies at once; a higher one, or none, waits 24 hours as pending', async () => {
      const { client } = await customer(server.url);
      const none = await client.get('/api/account/limits');
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ monthlySpendLimitPence: null, pending: null, spentThisMonthPence: 0 });

      const set = await put(client, '/api/account/limits', { monthlySpendLimitPence: 5000 });
      expect(set.status, set.text).toBe(200);
      expect(set.body).toEqual({ monthlySpendLimitPence: 5000, pending: null, spentThisMonthPence: 0 });

      const lower = await put(client, '/api/account/limits', { monthlySpendLimitPence: 2000 });
      expect(lower.body.monthlySpendLimitPence).toBe(2000);
      expect(lower.body.pending).toBeNull();

      const before = Date.now();
      const higher = await put(client, '/api/account/limits', { monthlySpendLimitPence: 9000 });
      expect(higher.body.monthlySpendLimitPence).toBe(2000);
      expect(higher.body.pending.monthlySpendLimitPence).toBe(9000);
      const effectiveAt = Date.parse(higher.body.pending.effectiveAt);
      expect(effectiveAt).toBeGreaterThanOrEqual(before + 24 * HOUR);
      expect(effectiveAt).toBeLessThan(Date.now() + 24 * HOUR + 1000);

      const removal = await put(client, '/api/account/limits', { monthlySpendLimitPence: null });
      expect(removal.body.monthlySpendLimitPence).toBe(2000);
      expect(removal.body.pending).toMatchObject({ monthlySpendLimitPence: null });

      // A lower limit cancels the pending removal and applies at once.
      const lowerAgain = await put(client, '/api/account/limits', { monthlySpendLimitPence: 1500 });
      expect(lowerAgain.body).toMatchObject({ monthlySpendLimitPence: 1500, pending: null });
    });

    it('a pending raise takes over once its 24 hours have passed', async () => {
      const { client, user } = await customer(server.url);
      await put(client, '/api/account/limits', { monthlySpendLimitPence: 1000 });
      await put(client, '/api/account/limits', { monthlySpendLimitPence: 3000 });
      await db('users')
        .where({ id: user.id })
        .update({ pendingSpendLimitAt: Date.now() - 1000 });
      const after = await client.get('/api/account/limits');
      expect(after.body).toMatchObject({ monthlySpendLimitPence: 3000, pending: null });
    });

    it('bad input is a 400 that changes nothing; signed out is 401', async () => {
      const { client, user } = await customer(server.url);
      await put(client, '/api/account/limits', { monthlySpendLimitPence: 1000 });
      for (const body of [
        {},
        { monthlySpendLimitPence: -1 },
        { monthlySpendLimitPence: 10.5 },
        { monthlySpendLimitPence: '10' },
      ]) {
        const res = await put(client, '/api/account/limits', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }
      const row = await db('users')
        .where({ id: user.id })
        .first('monthlySpendLimitPence', 'pendingSpendLimitAt');
      expect(row).toEqual({ monthlySpendLimitPence: 1000, pendingSpendLimitAt: null });
      const visitor = new TestClient(server.url);
      await visitor.fetchCsrfToken();
      expect((await visitor.get('/api/account/limits')).status).toBe(401);
      expect((await put(visitor, '/api/account/limits', { monthlySpendLimitPence: 1 })).status).toBe(401);
    });

    it('a checkout over the limit is refused with the amount left; paid orders count', async () => {
      const comp = await insertCompetition(db, { ticketPricePence: 300, totalTickets: 50 });
      const { client, user } = await customer(server.url, comp);
      await put(client, '/api/account/limits', { monthlySpendLimitPence: 1000 });
      const paid = await buy(client, comp, [1, 2]);
      expect(paid.status, paid.text).toBe(200);
      expect((await client.get('/api/account/limits')).body.spentThisMonthPence).toBe(600);

      await hold(client, comp, [3, 4]);
      const orders = await db('orders').where({ userId: user.id }).count({ n: '*' }).first();
      const over = await client.post('/api/create-payment-intent', {});
      expect(over.status, over.text).toBe(400);
      expect(over.body.code).toBe('spend_limit');
      expect(over.body.message).toBe(
        'This would take you over your monthly spending limit of £10 (£4 left this month).',
      );
      expect(over.body.details).toEqual({ limitPence: 1000, leftPence: 400 });
      // Nothing changed: no new order, the holds still the customer's.
      expect(await db('orders').where({ userId: user.id }).count({ n: '*' }).first()).toEqual(orders);
      expect(
        await db('tickets')
          .where({ competitionId: comp, status: 'reserved', userId: user.id })
          .count({ n: '*' })
          .first(),
      ).toMatchObject({ n: 2 });

      // One ticket fits.
      await client.request('DELETE', '/api/cart');
      const fits = await buy(client, comp, [5]);
      expect(fits.status, fits.text).toBe(200);
    });

    it('parallel checkouts of one customer never pass the limit', async () => {
      const comps = await Promise.all(
        [1, 2, 3, 4, 5].map(() => insertCompetition(db, { ticketPricePence: 400, totalTickets: 20 })),
      );
      const { client, user } = await customer(server.url, ...comps);
      await put(client, '/api/account/limits', { monthlySpendLimitPence: 1000 });
      const results = await Promise.allSettled(comps.map((c) => buy(client, c, [1])));
      // Each checkout takes the whole (shared) cart: paid, over the limit, or replaced; never a 5xx.
      for (const r of results) {
        if (r.status === 'rejected') expect(String(r.reason)).toMatch(/expected (400|409)/);
        else expect([200, 400, 409], r.value.text).toContain(r.value.status);
      }
      const spent = (await db('orders')
        .where({ userId: user.id, status: 'completed' })
        .sum({ total: 'subtotalPence' })
        .first()) as { total: number | string };
      expect(Number(spent.total)).toBeLessThanOrEqual(1000);
    });
  });

  describe('self-exclusion', () => {
    it('releases the holds live, then refuses holds and checkout but keeps sign-in and entries', async () => {
      const comp = await insertCompetition(db, { ticketPricePence: 100, totalTickets: 30 });
      const { client, user } = await customer(server.url, comp);
      const bought = await buy(client, comp, [9]);
      expect(bought.status, bought.text).toBe(200);
      await hold(client, comp, [1, 2]);

      const watcher = await connectSocket(server.url);
      try {
        const ack = await watch(watcher, comp);
        if (!ack.ok) throw new Error(ack.message);
        const released = collect(watcher, 'tickets:released');
        const before = Date.now();
        const res = await client.post('/api/account/self-exclusion', { period: '7d' });
        expect(res.status, res.text).toBe(200);
        const until = Date.parse(res.body.selfExcludedUntil);
        expect(until).toBeGreaterThanOrEqual(before + 7 * 24 * HOUR);
        await waitFor(() => released.length > 0, 3000, 'tickets:released');
        expect(released[0]!.numbers).toEqual([1, 2]);
      } finally {
        watcher.close();
      }
      expect(await db('tickets').where({ competitionId: comp, status: 'reserved' })).toEqual([]);
      expect(await db('cartItems').where({ userId: user.id })).toEqual([]);

      const refused = await client.post('/api/cart', {
        competitionId: comp,
        quantity: 1,
        selectedNumbers: [3],
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('self_excluded');
      expect(refused.body.message).toMatch(
        /^You're taking a break until \d+ \w+ \d{4}\. You can't enter until then\.$/,
      );
      const checkout = await client.post('/api/create-payment-intent', {});
      expect(checkout.status).toBe(403);
      expect(checkout.body.code).toBe('self_excluded');

      const entries = await client.get('/api/user-entries');
      expect(entries.status).toBe(200);
      expect(entries.body.length).toBe(1);
      expect((await client.get('/api/account/self-exclusion')).body.selfExcludedUntil).not.toBeNull();
    });

    it('cannot be shortened or lifted early; the admin list shows it; no marketing meanwhile', async () => {
      const { client, user } = await customer(server.url);
      await client.request('PUT', '/api/account/preferences', { marketingEmails: true });
      // Marketing goes only to a confirmed address.
      await db('users').where({ id: user.id }).update({ emailVerifiedAt: Date.now() });
      expect(await mayReceiveMarketing(db, user.id)).toBe(true);
      const long = await client.post('/api/account/self-exclusion', { period: '5y' });
      expect(long.status).toBe(200);
      const short = await client.post('/api/account/self-exclusion', { period: '24h' });
      expect(short.body.selfExcludedUntil).toBe(long.body.selfExcludedUntil);
      expect(Date.parse(long.body.selfExcludedUntil)).toBeGreaterThan(Date.now() + 4 * 365 * 24 * HOUR);
      expect(await mayReceiveMarketing(db, user.id)).toBe(false);

      // Neither the customer nor an admin has a way to end it.
      for (const method of ['DELETE', 'PUT', 'PATCH'] as const) {
        const res = await client.request(method, '/api/account/self-exclusion', {});
        expect(res.status, method).toBe(405);
      }
      const { client: admin } = await signedInAdmin(server.url);
      const list = await admin.get('/api/admin/users');
      const row = (list.body as Array<{ id: number; selfExcludedUntil: string | null }>).find(
        (u) => u.id === user.id,
      );
      expect(row?.selfExcludedUntil).toBe(long.body.selfExcludedUntil);

      const bad = await client.post('/api/account/self-exclusion', { period: '2w' });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Choose how long to take a break for');
    });
  });

  it('signing in while on a break lets go of what was held as a guest', async () => {
    const comp = await insertCompetition(db, { ticketPricePence: 100, totalTickets: 30 });
    const { client, user, password } = await signedInCustomer(server.url);
    expect((await client.post('/api/account/self-exclusion', { period: '24h' })).status).toBe(200);

    const guest = new TestClient(server.url);
    await guest.fetchCsrfToken();
    await guest.post(`/api/competitions/${comp}/skill-answer`, { answer: '365' });
    await hold(guest, comp, [7]);
    const login = await guest.post('/api/login', { username: user.username, password });
    expect(login.status, login.text).toBe(200);
    expect(await db('tickets').where({ competitionId: comp })).toEqual([]);
    expect((await guest.get('/api/cart')).body).toEqual([]);
  });

  describe('harm report', () => {
    it('lists customers over the thresholds with their limits and breaks; reviews are audited', async () => {
      const comp = await insertCompetition(db, { ticketPricePence: 5000, totalTickets: 20 });
      const big = await customer(server.url, comp);
      await put(big.client, '/api/account/limits', { monthlySpendLimitPence: 50_000 });
      expect((await buy(big.client, comp, [1, 2, 3])).status).toBe(200);
      const small = await customer(server.url, comp);
      expect((await buy(small.client, comp, [4])).status).toBe(200);

      const { client: admin } = await signedInAdmin(server.url);
      const report = await admin.get('/api/admin/harm-report');
      expect(report.status, report.text).toBe(200);
      expect(report.body.thresholds).toEqual({ spend24hPence: 10_000, spend30dPence: 50_000 });
      const ids = report.body.rows.map((r: { userId: number }) => r.userId);
      expect(ids).toContain(big.user.id);
      expect(ids).not.toContain(small.user.id);
      const row = report.body.rows.find((r: { userId: number }) => r.userId === big.user.id);
      expect(row).toMatchObject({
        spent24hPence: 15_000,
        spent30dPence: 15_000,
        monthlySpendLimitPence: 50_000,
        pendingSpendLimit: null,
        selfExcludedUntil: null,
        reviews: [],
      });

      const review = await admin.post(`/api/admin/harm-report/${big.user.id}/reviews`, {
        action: 'contacted',
        note: 'Called to check in; suggested a lower limit.',
      });
      expect(review.status, review.text).toBe(201);
      expect(review.body).toMatchObject({ action: 'contacted', adminName: 'admin' });
      const audit = await db('auditLog').where({ action: 'user.harm_review', entityId: String(big.user.id) });
      expect(audit.length).toBe(1);
      const again = await admin.get('/api/admin/harm-report');
      expect(again.body.rows.find((r: { userId: number }) => r.userId === big.user.id).reviews[0].note).toBe(
        'Called to check in; suggested a lower limit.',
      );

      const bad = await admin.post(`/api/admin/harm-report/${big.user.id}/reviews`, {
        action: 'ban',
        note: '',
      });
      expect(bad.status).toBe(400);
      expect(
        (await admin.post('/api/admin/harm-report/999999/reviews', { action: 'watch', note: 'x' })).status,
      ).toBe(404);

      const raised = await admin.request('PUT', '/api/admin/harm-report/thresholds', {
        spend24hPence: 20_000,
        spend30dPence: 100_000,
      });
      expect(raised.status).toBe(200);
      expect(await db('auditLog').where({ action: 'setting.harm_thresholds' })).toHaveLength(1);
      const none = await admin.get('/api/admin/harm-report');
      expect(none.body.rows.map((r: { userId: number }) => r.userId)).not.toContain(big.user.id);
      await admin.request('PUT', '/api/admin/harm-report/thresholds', {
        spend24hPence: 10_000,
        spend30dPence: 50_000,
      });

      expect((await big.client.get('/api/admin/harm-report')).status).toBe(403);
    });
  });
});
