import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { registeredClient, shopper } from '../../support/accounts';
import { put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 15, points 3 and 4: the per-person cap holds on every path that gives numbers (a hold, the
// sign-in merge, fulfilment: tests/api/orders/checkout.test.ts), every competition has one (the
// site default when it has none of its own), and holds are rate limited per session and address.

const heldBy = async (db: Knex, competitionId: number, userId: number) =>
  (
    (await db('tickets')
      .where({ competitionId, userId, status: 'reserved' })
      .select('number')
      .orderBy('number')) as Array<{ number: number }>
  ).map((r) => r.number);

const chosen = (client: TestClient, competitionId: number, numbers: number[]) =>
  client.post('/api/cart', { competitionId, quantity: numbers.length, selectedNumbers: numbers });

/** Signs the visitor of `client` in to the account of `body` (its guest cart is merged). */
const signIn = (client: TestClient, body: { username: string; password: string }) =>
  client.post('/api/login', { username: body.username, password: body.password });

describe.skipIf(engineUnavailable())(`the per-person cap on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  describe('signing in with a guest cart', () => {
    it('keeps what fits under the cap, releases the rest, and says which numbers and why', async () => {
      const id = await insertCompetition(db, { title: 'Cap three', totalTickets: 50 });
      await db('competitions').where({ id }).update({ maxTicketsPerUser: 3 });
      const account = await registeredClient(server.url);
      await account.client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
      expect((await chosen(account.client, id, [1, 2, 3])).status).toBe(201);

      const guest = await shopper(server.url, id);
      expect((await chosen(guest, id, [4, 5, 6])).status).toBe(201);
      const watcher = await connectSocket(server.url);
      try {
        expect((await watch(watcher, id)).ok).toBe(true);
        const released = collect(watcher, 'tickets:released');

        const res = await signIn(guest, account.body);
        expect(res.status).toBe(200);
        expect(res.body.notices).toEqual([
          'Numbers 4, 5 and 6 in "Cap three" were released: the limit is 3 per person.',
        ]);
        expect(await heldBy(db, id, account.user.id)).toEqual([1, 2, 3]);
        expect(await db('cartItems').where({ competitionId: id })).toHaveLength(1);
        const events = await db('ticketEvents')
          .where({ competitionId: id, event: 'released' })
          .select('number')
          .orderBy('number');
        expect(events.map((e: { number: number }) => e.number)).toEqual([4, 5, 6]);
        await waitFor(() => released.length === 1, 2000, 'tickets:released');
        expect(released[0]).toMatchObject({ competitionId: id, numbers: [4, 5, 6] });
      } finally {
        watcher.close();
      }
      // The signed-in cart is the one line the account already had.
      await guest.fetchCsrfToken();
      const cart = await guest.get('/api/cart');
      expect(cart.body.map((i: { selectedNumbers: number[] }) => i.selectedNumbers)).toEqual([[1, 2, 3]]);
    });

    it('trims the one line that only partly fits and keeps its lowest numbers', async () => {
      const id = await insertCompetition(db, { title: 'Cap four', totalTickets: 50 });
      await db('competitions').where({ id }).update({ maxTicketsPerUser: 4 });
      const account = await registeredClient(server.url);
      await account.client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
      expect((await chosen(account.client, id, [10, 11])).status).toBe(201);
      const guest = await shopper(server.url, id);
      expect((await chosen(guest, id, [1, 2, 3])).status).toBe(201);
      expect((await guest.post('/api/cart', { competitionId: id, quantity: 1 })).status).toBe(201);

      const res = await signIn(guest, account.body);
      expect(res.status).toBe(200);
      expect(res.body.notices).toHaveLength(1);
      expect(await heldBy(db, id, account.user.id)).toHaveLength(4);
      const trimmed = await db('cartItems')
        .where({ competitionId: id, userId: account.user.id })
        .orderBy('id');
      expect(trimmed.map((i: { quantity: number }) => i.quantity)).toEqual([2, 2]);
      expect(JSON.parse(trimmed[1].selectedNumbers)).toEqual([1, 2]);
      expect(res.body.notices[0]).toMatch(/^Number(s)? .*3.* in "Cap four" (was|were) released/);
    });

    it('races with holds from the account on another device: the account never passes the cap', async () => {
      const id = await insertCompetition(db, { totalTickets: 50 });
      await db('competitions').where({ id }).update({ maxTicketsPerUser: 3 });
      const account = await registeredClient(server.url);
      await account.client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
      const guest = await shopper(server.url, id);
      expect((await chosen(guest, id, [1, 2, 3])).status).toBe(201);
      const results = await Promise.all([
        signIn(guest, account.body),
        ...[10, 11, 12, 13].map((n) => chosen(account.client, id, [n])),
      ]);
      expect(results[0]!.status).toBe(200);
      expect(results.slice(1).every((r) => [201, 409].includes(r.status))).toBe(true);
      expect((await heldBy(db, id, account.user.id)).length).toBeLessThanOrEqual(3);
    });
  });

  describe('the site default cap (no hoarding)', () => {
    it('one guest session cannot hold more than 100 of 1,000 numbers when the competition has no cap', async () => {
      const id = await insertCompetition(db, { totalTickets: 1000 });
      const guest = await shopper(server.url, id);
      const statuses: number[] = [];
      // The hoarder's attack: ten chosen numbers a line. The hold rate limit stops it at 30 lines
      // a minute anyway; the cap stops it at 100 numbers however slowly it goes.
      for (let line = 0; line < 12; line++) {
        const numbers = Array.from({ length: 10 }, (_, i) => line * 10 + i + 1);
        const res = await chosen(guest, id, numbers);
        statuses.push(res.status);
        if (res.status === 409) {
          expect(res.body).toMatchObject({
            code: 'over_cap',
            message: 'You can have at most 100 tickets for this competition and already have 100.',
            details: { limit: 100, current: 100 },
          });
        }
      }
      expect(statuses).toEqual([...Array(10).fill(201), 409, 409]);
      const held = await db('tickets').where({ competitionId: id }).count({ n: '*' }).first();
      expect(Number(held?.n)).toBe(100);
    });

    it('parallel holds from one account stop at the default cap', async () => {
      const id = await insertCompetition(db, { totalTickets: 1000 });
      const account = await registeredClient(server.url);
      await account.client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, line) =>
          chosen(
            account.client,
            id,
            Array.from({ length: 10 }, (_, i) => line * 10 + i + 1),
          ),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(10);
      expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'over_cap')).toBe(true);
      expect(await heldBy(db, id, account.user.id)).toHaveLength(100);
    });

    it('the public competition shows the cap that applies: its own, else the site default', async () => {
      const own = await insertCompetition(db);
      await db('competitions').where({ id: own }).update({ maxTicketsPerUser: 5 });
      const none = await insertCompetition(db);
      const client = await shopper(server.url);
      expect((await client.get(`/api/competitions/${own}`)).body.maxTicketsPerUser).toBe(5);
      expect((await client.get(`/api/competitions/${none}`)).body.maxTicketsPerUser).toBe(100);
      const list = (await client.get('/api/competitions')).body as Array<{
        id: number;
        maxTicketsPerUser: number;
      }>;
      expect(list.find((c) => c.id === none)?.maxTicketsPerUser).toBe(100);
    });
  });

  describe('the default cap setting', () => {
    it('the admin sets the default cap; competitions without their own follow it, guests included', async () => {
      const id = await insertCompetition(db, { totalTickets: 100 });
      const { client: admin } = await signedInAdmin(server.url);
      expect((await admin.get('/api/admin/settings/ticket-cap')).body).toEqual({
        defaultMaxTicketsPerUser: 100,
      });
      const bad = await put(admin, '/api/admin/settings/ticket-cap', { defaultMaxTicketsPerUser: 0 });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('validation_failed');
      const { client: customer } = await signedInCustomer(server.url);
      expect(
        (await put(customer, '/api/admin/settings/ticket-cap', { defaultMaxTicketsPerUser: 1 })).status,
      ).toBe(403);
      const set = await put(admin, '/api/admin/settings/ticket-cap', { defaultMaxTicketsPerUser: 2 });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ defaultMaxTicketsPerUser: 2 });
      expect(await db('auditLog').where({ action: 'setting.default_max_tickets_per_user' })).toHaveLength(1);
      expect((await admin.get(`/api/competitions/${id}`)).body.maxTicketsPerUser).toBe(2);

      const guest = await shopper(server.url, id);
      expect((await chosen(guest, id, [1, 2])).status).toBe(201);
      const over = await chosen(guest, id, [3]);
      expect(over.status).toBe(409);
      expect(over.body.message).toBe(
        'You can have at most 2 tickets for this competition and already have 2.',
      );
      // Back to the default for the tests after this one.
      expect(
        (await put(admin, '/api/admin/settings/ticket-cap', { defaultMaxTicketsPerUser: 100 })).status,
      ).toBe(200);
    });
  });

  describe('hold rate limit per session', () => {
    it('the 31st hold in a minute from one session is a 429 with Retry-After', async () => {
      const id = await insertCompetition(db, { totalTickets: 100 });
      const guest = await shopper(server.url, id);
      const results = [];
      for (let n = 1; n <= 31; n++) results.push(await chosen(guest, id, [n]));
      expect(results.slice(0, 30).every((r) => r.status === 201)).toBe(true);
      const refused = results[30]!;
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.body.message).toMatch(/^You are adding tickets too quickly\. Please wait \d+ seconds?/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await db('tickets').where({ competitionId: id })).toHaveLength(30);
    });
  });
});

describe.skipIf(engineUnavailable())(`hold rate limit per address on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  // A low limit so the test needs few sessions; the default (120 a minute) is in docs/security.md.
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { HOLD_RATE_PER_ADDRESS: '5' } },
  );

  it('fresh sessions from one address share its limit', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const sessions = await Promise.all(Array.from({ length: 6 }, () => shopper(server.url, id)));
    const results = [];
    for (const [i, s] of sessions.entries()) results.push(await chosen(s, id, [i + 1]));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(results[5]!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
