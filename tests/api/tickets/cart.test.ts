import type { Knex } from 'knex';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { HoldsInFlight } from '../../../api/tickets/quickRefusal/holdsInFlight';
import { bitmapNumbers, decodeBitmap } from '../../../contract/bitmap';
import { registration, shopper } from '../../support/accounts';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const rowsOf = async (db: Knex, competitionId: number) =>
  (await db('tickets').where({ competitionId }).orderBy('number').select('number', 'status')).map(
    (r: { number: number; status: string }) => `${r.number}:${r.status}`,
  );

describe.skipIf(engineUnavailable())(`cart and reservations on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  describe('skill question', () => {
    it('sends the question and options, never the answer', async () => {
      const id = await insertCompetition(db);
      const res = await new TestClient(server.url).get(`/api/competitions/${id}/skill-question`);
      expect(res.body.question).toBe('How many days in a typical year?');
      expect([...res.body.options].sort()).toEqual(['360', '364', '365', '366']);
      expect(res.text).not.toMatch(/skillAnswer|"answer"/);
    });

    it('refuses a hold until the question is answered correctly in this session; a wrong answer may retry', async () => {
      const id = await insertCompetition(db);
      const client = new TestClient(server.url);
      await client.fetchCsrfToken();
      const denied = await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toBe('Please answer the skill question first');
      expect((await client.post(`/api/competitions/${id}/skill-answer`, { answer: '366' })).body).toEqual({
        correct: false,
        attemptsLeft: 1,
        retryAt: null,
      });
      expect(
        (await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] })).status,
      ).toBe(403);
      expect((await client.post(`/api/competitions/${id}/skill-answer`, { answer: 365 })).body).toEqual({
        correct: true,
      });
      expect(
        (await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] })).status,
      ).toBe(201);
      // The answer counts for that competition only.
      const other = await insertCompetition(db);
      expect((await client.post('/api/cart', { competitionId: other, quantity: 1 })).status).toBe(403);
    });
  });

  it('reads an empty cart without starting a session, so parallel first requests share one', async () => {
    const client = new TestClient(server.url);
    const res = await client.get('/api/cart');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('holds chosen numbers all-or-none: 409 names the taken ones and changes nothing', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const alice = await shopper(server.url, id);
    const bob = await shopper(server.url, id);
    const held = await alice.post('/api/cart', {
      competitionId: id,
      quantity: 3,
      selectedNumbers: [7, 3, 5],
    });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({
      competitionId: id,
      quantity: 3,
      selectedNumbers: [3, 5, 7],
      heldNumbers: [3, 5, 7],
    });
    expect(Date.parse(held.body.expiresAt) - Date.parse(held.body.reservedAt)).toBe(600_000);
    expect(held.body.competition).toMatchObject({ title: expect.any(String), ticketPrice: 1 });

    const before = await rowsOf(db, id);
    const clash = await bob.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [5, 6] });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('Sorry, some of those numbers have just been taken by someone else.');
    expect(clash.body.details.taken).toEqual([5]);
    expect(await rowsOf(db, id)).toEqual(before); // 6 was not held either
    expect((await bob.get('/api/cart')).body).toEqual([]);
    expect((await new TestClient(server.url).get(`/api/competitions/${id}/reserved-tickets`)).body).toEqual([
      3, 5, 7,
    ]);
  });

  it('refuses sold numbers and answers the same numbers again with the existing item', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    await sellTickets(db, id, await insertUser(db), [1]);
    const client = await shopper(server.url, id);
    const sold = await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] });
    expect(sold.status).toBe(409);
    expect(sold.body.details.taken).toEqual([1]);
    const first = await client.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [2, 4] });
    const again = await client.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [4, 2] });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await client.get('/api/cart')).body).toHaveLength(1);
  });

  it('refuses a taken number before any transaction: no cart read, no lock; the cap is not counted first', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    await db('competitions').where({ id }).update({ maxTicketsPerUser: 2 });
    const alice = await shopper(server.url, id);
    const bob = await shopper(server.url, id);
    expect(
      (await alice.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [9] })).status,
    ).toBe(201);
    expect(
      (await bob.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [1, 2] })).status,
    ).toBe(201);
    const statements: string[] = [];
    const record = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', record);
    // Bob is at his cap of 2 and asks for Alice's number: he hears about the number.
    const refused = await bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [9] });
    db.off('query', record);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Sorry, some of those numbers have just been taken by someone else.');
    expect(refused.body.details.taken).toEqual([9]);
    expect(statements.filter((sql) => /cart_items|cap_locks/.test(sql))).toEqual([]);
    // His own numbers with someone else's: 409 naming all of them, as inside the transaction.
    const mixed = await bob.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [2, 9] });
    expect(mixed.status).toBe(409);
    expect(mixed.body.details.taken).toEqual([2, 9]);
    // Over the cap with free numbers: the cap's own answer.
    const capped = await bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [5] });
    expect(capped.status).toBe(409);
    expect(capped.body.details).toEqual({ limit: 2, current: 2 });
    expect(await rowsOf(db, id)).toEqual(['1:reserved', '2:reserved', '9:reserved']);
  });

  it("a hot number's losers read only the tickets: the competition found open is remembered, never its closing", async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const alice = await shopper(server.url, id);
    const bob = await shopper(server.url, id);
    expect(
      (await alice.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] })).status,
    ).toBe(201);
    const statements: string[] = [];
    const record = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', record);
    const refusals = [];
    for (let i = 0; i < 3; i++)
      refusals.push(await bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] }));
    db.off('query', record);
    expect(refusals.map((r) => [r.status, r.body.details.taken])).toEqual([
      [409, [7]],
      [409, [7]],
      [409, [7]],
    ]);
    // Alice's hold read the competition a moment ago; Bob's refusals did not read it again.
    expect(statements.filter((sql) => /from `competitions`/.test(sql))).toEqual([]);
    expect(statements.filter((sql) => /from `tickets`/.test(sql))).toHaveLength(3);
    // An admin ends it: free numbers hear "closed" at once, from the hold's own fresh read.
    await db('competitions').where({ id }).update({ status: 'ended' });
    const free = await bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [8] });
    expect([free.status, free.body.message]).toEqual([409, 'This competition is closed to new entries.']);
    expect(await rowsOf(db, id)).toEqual(['7:reserved']);
  });

  // A hold in flight is one whose transaction has not committed yet. Only MariaDB can keep one
  // waiting while other requests go on (SQLite runs one connection, which the hold would occupy).
  it.skipIf(testEngine() !== 'mysql')(
    "a number someone else is holding right now is refused at once, without waiting for their hold; the same person's second request waits for their first",
    async () => {
      const id = await insertCompetition(db, { totalTickets: 20 });
      const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => shopper(server.url, id)));
      expect(
        (await carol!.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] })).status,
      ).toBe(201);
      // The competition's version row, locked here: a hold of it waits on its last statement.
      const lock = await db.transaction();
      await lock.raw('SELECT version FROM competition_versions WHERE competition_id = ? FOR UPDATE', [id]);
      const blocked = new Promise<void>((resolve) => {
        const onQuery = (q: { sql: string }) => {
          if (/competition_versions/.test(q.sql) && /INSERT/i.test(q.sql)) {
            db.off('query', onQuery);
            resolve();
          }
        };
        db.on('query', onQuery);
      });
      const aliceHold = alice!.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] });
      const aliceAgain = blocked.then(() =>
        alice!.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] }),
      );
      const waitsForHold = vi.spyOn(HoldsInFlight.prototype, 'pending');
      let aliceAgainAnswered = false;
      void aliceAgain.then(() => {
        aliceAgainAnswered = true;
      });
      await blocked;
      // A deadline (cleared): Bob's answer is expected well before it.
      let deadline: NodeJS.Timeout | undefined;
      const waited = new Promise<'still waiting'>((r) => {
        deadline = setTimeout(() => r('still waiting'), 3000);
      });
      const refused = await Promise.race([
        bob!.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [7, 8] }),
        waited,
      ]).finally(() => clearTimeout(deadline));
      try {
        expect(refused).not.toBe('still waiting');
        if (refused === 'still waiting') return;
        expect([refused.status, refused.body.code, refused.body.details]).toEqual([
          409,
          'number_taken',
          { taken: [7] },
        ]);
        // Alice's second request is seen waiting for her first, which is in flight on number 7
        // (api/tickets/quickRefusal/holdsInFlight.ts): while it does, it has not answered.
        await waitFor(
          () =>
            waitsForHold.mock.calls.some(
              ([competitionId, numbers], i) =>
                competitionId === id &&
                numbers.join() === '7' &&
                (waitsForHold.mock.results[i]?.value as unknown[] | undefined)?.length === 1,
            ),
          5000,
          "Alice's second hold to wait for her first",
        );
        expect(aliceAgainAnswered).toBe(false);
      } finally {
        waitsForHold.mockRestore();
        await lock.commit();
      }
      const [first, second] = await Promise.all([aliceHold, aliceAgain]);
      expect([first.status, second.status, second.body.id]).toEqual([201, 200, first.body.id]);
      expect(await rowsOf(db, id)).toEqual(['1:reserved', '7:reserved']);
    },
  );

  // A fast path (fastpaths/pinnedConnection.ts): with FAST_PATHS=off the hold uses the pool as any route does.
  it.skipIf(testEngine() !== 'mysql' || process.env.FAST_PATHS === 'off')(
    'a hold asks the pool for a connection once after its session: the quick refusal, the transaction and the cart read back share it',
    async () => {
      const id = await insertCompetition(db, { totalTickets: 20 });
      const alice = await shopper(server.url, id);
      const client = db.client as { acquireConnection: () => Promise<unknown> };
      const acquire = client.acquireConnection;
      const connections: string[] = [];
      const statements: Array<{ sql: string; connection: string }> = [];
      const record = (q: { sql: string; __knexUid: string }) =>
        statements.push({ sql: q.sql, connection: q.__knexUid });
      client.acquireConnection = async function (this: unknown) {
        const connection = (await acquire.call(this)) as { __knexUid: string };
        connections.push(connection.__knexUid);
        return connection;
      };
      db.on('query', record);
      try {
        const held = await alice.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] });
        expect(held.status).toBe(201);
      } finally {
        client.acquireConnection = acquire;
        db.off('query', record);
      }
      // One for the session, one for the rest.
      expect(connections).toHaveLength(2);
      const rest = statements.filter((s) => !/from `sessions`/.test(s.sql));
      expect(rest.length).toBeGreaterThan(5);
      expect(new Set(rest.map((s) => s.connection))).toEqual(new Set([connections[1]]));
    },
  );

  it.skipIf(testEngine() !== 'mysql')(
    'a request without the skill answer marks nothing in flight: it cannot get others refused while it waits for its 403',
    async () => {
      const id = await insertCompetition(db, { totalTickets: 20 });
      const mallory = new TestClient(server.url);
      await mallory.fetchCsrfToken();
      const bob = await shopper(server.url, id);
      // Every hold of the competition waits on its first statement (the cap lock's insert).
      const lock = await db.transaction();
      await lock.raw('SELECT * FROM cap_locks WHERE competition_id = ? FOR UPDATE', [id]);
      const capLockInserts = () =>
        new Promise<void>((resolve) => {
          const onQuery = (q: { sql: string }) => {
            if (/INSERT INTO cap_locks/i.test(q.sql)) {
              db.off('query', onQuery);
              resolve();
            }
          };
          db.on('query', onQuery);
        });
      const malloryWaits = capLockInserts();
      const attempt = mallory.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] });
      await malloryWaits;
      const bobWaits = capLockInserts();
      const hold = bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] });
      // Bob's hold is not refused on Mallory's account: it goes on to its own transaction.
      const early = await Promise.race([
        hold.then((r) => r.status),
        bobWaits.then(() => 'in its transaction'),
      ]);
      await lock.commit();
      expect(early).toBe('in its transaction');
      expect([(await attempt).status, (await hold).status]).toEqual([403, 201]);
      expect(await rowsOf(db, id)).toEqual(['7:reserved']);
    },
  );

  it('Lucky Dip holds random available numbers and merges a second Lucky Dip into the same item', async () => {
    const id = await insertCompetition(db, { totalTickets: 12 });
    await sellTickets(db, id, await insertUser(db), [1, 2, 3, 4]);
    const client = await shopper(server.url, id);
    const first = await client.post('/api/cart', { competitionId: id, quantity: 3 });
    expect(first.status).toBe(201);
    expect(first.body.selectedNumbers).toEqual([]);
    expect(first.body.heldNumbers).toHaveLength(3);
    for (const n of first.body.heldNumbers) expect(n).toBeGreaterThan(4);
    const merged = await client.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [] });
    expect(merged.status).toBe(200);
    expect(merged.body.id).toBe(first.body.id);
    expect(merged.body.quantity).toBe(5);
    expect(new Set(merged.body.heldNumbers).size).toBe(5);
    // 8 numbers were free, 5 are now held: 3 remain.
    const tooMany = await (await shopper(server.url, id)).post('/api/cart', {
      competitionId: id,
      quantity: 4,
    });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.message).toBe('Only 3 tickets are available.');
    const overTen = await client.post('/api/cart', { competitionId: id, quantity: 6 });
    expect(overTen.status).toBe(400);
    expect(overTen.body.message).toBe('A cart item can hold at most 10 tickets.');
  });

  it('a Lucky Dip on a mostly free competition reads only its random candidates, never a sold number', async () => {
    const id = await insertCompetition(db, { totalTickets: 1000 });
    const sold = Array.from({ length: 300 }, (_, i) => i * 3 + 1);
    await sellTickets(db, id, await insertUser(db), sold);
    const client = await shopper(server.url, id);
    const statements: string[] = [];
    const record = (q: { sql: string; bindings?: unknown[] }) => {
      if (/from `tickets`/.test(q.sql) && /`number`/.test(q.sql)) statements.push(q.sql);
    };
    db.on('query', record);
    const dip = await client.post('/api/cart', { competitionId: id, quantity: 10 });
    db.off('query', record);
    expect(dip.status).toBe(201);
    expect(new Set(dip.body.heldNumbers).size).toBe(10);
    for (const n of dip.body.heldNumbers) expect(sold).not.toContain(n);
    // One read of the numbers, limited to the candidates: not the 300 sold rows.
    const picks = statements.filter((sql) => /select `number` from `tickets`/.test(sql));
    expect(picks).toHaveLength(1);
    expect(picks[0]).toMatch(/`number` in \(/);
  });

  it('changes a Lucky Dip quantity by holding or releasing numbers; chosen numbers cannot change', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const client = await shopper(server.url, id);
    const dip = await client.post('/api/cart', { competitionId: id, quantity: 2 });
    const up = await client.request('PATCH', `/api/cart/${dip.body.id}`, { quantity: 6 });
    expect(up.status).toBe(200);
    expect(up.body.quantity).toBe(6);
    expect(up.body.heldNumbers).toHaveLength(6);
    expect(up.body.heldNumbers).toEqual(expect.arrayContaining(dip.body.heldNumbers));
    const down = await client.request('PATCH', `/api/cart/${dip.body.id}`, { quantity: 1 });
    expect(down.body.heldNumbers).toHaveLength(1);
    expect((await rowsOf(db, id)).length).toBe(1);

    // A number the Lucky Dip did not keep (it keeps one of 100 at random).
    const free = down.body.heldNumbers[0] === 50 ? 51 : 50;
    const chosen = await client.post('/api/cart', {
      competitionId: id,
      quantity: 1,
      selectedNumbers: [free],
    });
    expect(chosen.status).toBe(201);
    const refused = await client.request('PATCH', `/api/cart/${chosen.body.id}`, { quantity: 2 });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Can't modify quantity for tickets with selected numbers");
    expect((await client.request('PATCH', '/api/cart/999999', { quantity: 2 })).status).toBe(404);
    // Someone else's item is not found either.
    const stranger = await shopper(server.url, id);
    expect((await stranger.request('PATCH', `/api/cart/${dip.body.id}`, { quantity: 3 })).status).toBe(404);
    expect((await stranger.request('DELETE', `/api/cart/${dip.body.id}`)).status).toBe(404);
  });

  it('removes one item or the whole cart, releasing the numbers', async () => {
    const id = await insertCompetition(db, { totalTickets: 30 });
    const client = await shopper(server.url, id);
    const a = await client.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [1, 2] });
    await client.post('/api/cart', { competitionId: id, quantity: 3 });
    expect((await client.request('DELETE', `/api/cart/${a.body.id}`)).status).toBe(200);
    expect((await client.request('DELETE', `/api/cart/${a.body.id}`)).status).toBe(404);
    expect((await rowsOf(db, id)).length).toBe(3);
    expect((await client.request('DELETE', '/api/cart')).status).toBe(200);
    expect(await rowsOf(db, id)).toEqual([]);
    expect((await client.get('/api/cart')).body).toEqual([]);
  });

  describe('bad requests change nothing', () => {
    let id: number;
    let ended: number;
    let client: TestClient;
    beforeAll(async () => {
      id = await insertCompetition(db, { totalTickets: 20 });
      ended = await insertCompetition(db, { status: 'ended' });
      client = await shopper(server.url, id, ended);
      await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [10] });
    });

    const cases: Array<[string, () => Record<string, unknown>, number, string | RegExp]> = [
      [
        'quantity 0',
        () => ({ competitionId: id, quantity: 0 }),
        400,
        'Quantity must be a whole number from 1 to 10',
      ],
      [
        'quantity 11',
        () => ({ competitionId: id, quantity: 11 }),
        400,
        'Quantity must be a whole number from 1 to 10',
      ],
      [
        'quantity as text',
        () => ({ competitionId: id, quantity: '2' }),
        400,
        'Quantity must be a whole number from 1 to 10',
      ],
      [
        'a number above the total',
        () => ({ competitionId: id, quantity: 1, selectedNumbers: [21] }),
        400,
        'Ticket numbers must be between 1 and 20.',
      ],
      [
        'number 0',
        () => ({ competitionId: id, quantity: 1, selectedNumbers: [0] }),
        400,
        'Ticket numbers start at 1',
      ],
      [
        'duplicates',
        () => ({ competitionId: id, quantity: 2, selectedNumbers: [3, 3] }),
        400,
        'Each number can only be chosen once',
      ],
      [
        'count mismatch',
        () => ({ competitionId: id, quantity: 3, selectedNumbers: [3, 4] }),
        400,
        'The number of selected numbers must equal the quantity',
      ],
      [
        'numbers as text',
        () => ({ competitionId: id, quantity: 1, selectedNumbers: ['3'] }),
        400,
        'Ticket numbers must be whole numbers',
      ],
      ['unknown competition', () => ({ competitionId: 987654, quantity: 1 }), 404, 'Competition not found'],
      [
        'ended competition',
        () => ({ competitionId: ended, quantity: 1 }),
        409,
        'This competition is closed to new entries.',
      ],
    ];
    for (const [name, body, status, message] of cases) {
      it(`${name} -> ${status}`, async () => {
        const before = await db('tickets').count({ n: '*' }).first();
        const items = await db('cartItems').count({ n: '*' }).first();
        const res = await client.post('/api/cart', body());
        expect(res.status).toBe(status);
        expect(res.body.message).toMatch(message);
        expect(await db('tickets').count({ n: '*' }).first()).toEqual(before);
        expect(await db('cartItems').count({ n: '*' }).first()).toEqual(items);
      });
    }
  });

  it('lets anyone hold a number whose hold has expired, before any sweeper runs', async () => {
    const id = await insertCompetition(db, { totalTickets: 10 });
    const alice = await shopper(server.url, id);
    const held = await alice.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [4] });
    await db('cartItems')
      .where({ id: held.body.id })
      .update({ expiresAt: Date.now() - 1 });
    await db('tickets')
      .where({ cartItemId: held.body.id })
      .update({ expiresAt: Date.now() - 1 });
    expect((await alice.get('/api/cart')).body).toEqual([]);
    expect((await alice.get(`/api/competitions/${id}/reserved-tickets`)).body).toEqual([]);
    const bob = await shopper(server.url, id);
    const taken = await bob.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [4] });
    expect(taken.status).toBe(201);
    expect(await rowsOf(db, id)).toEqual(['4:reserved']);
  });

  it('enforces the per-person cap, also under parallel requests', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    await db('competitions').where({ id }).update({ maxTicketsPerUser: 3 });
    const client = await shopper(server.url, id);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [i + 1] }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.message).toMatch(/^You can have at most 3 tickets for this competition/);
    expect((await rowsOf(db, id)).length).toBe(3);
  });

  it("moves a guest's cart to the account at registration", async () => {
    const id = await insertCompetition(db);
    const client = await shopper(server.url, id);
    const item = await client.post('/api/cart', { competitionId: id, quantity: 2 });
    expect((await client.post('/api/register', registration())).status).toBe(201);
    await client.fetchCsrfToken();
    const cart = await client.get('/api/cart');
    expect(cart.body.map((i: { id: number }) => i.id)).toEqual([item.body.id]);
    // The held numbers belong to the account now, so per-person limits count them everywhere.
    const userId = (await client.get('/api/user')).body.id;
    const held = await db('tickets').where({ cartItemId: item.body.id }).select('userId');
    expect(held).toEqual([{ userId }, { userId }]);
  });

  describe('realtime', () => {
    it('sends the watcher a snapshot, then each hold and release with version + 1', async () => {
      const id = await insertCompetition(db, { totalTickets: 40 });
      await sellTickets(db, id, await insertUser(db), [40]);
      const holder = await shopper(server.url, id);
      await holder.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [2] });

      const watcher = await connectSocket(server.url);
      const mineSocket = await connectSocket(server.url, holder.cookieHeader);
      try {
        const ack = await watch(watcher, id);
        if (!ack.ok) throw new Error(ack.message);
        const { snapshot } = ack;
        expect(bitmapNumbers(decodeBitmap(snapshot.sold), 40)).toEqual([40]);
        expect(bitmapNumbers(decodeBitmap(snapshot.reserved), 40)).toEqual([2]);
        expect(snapshot.mine).toEqual([]);
        expect(snapshot).toMatchObject({
          competitionId: id,
          totalTickets: 40,
          ticketsSold: 1,
          status: 'active',
        });
        const mineAck = await watch(mineSocket, id);
        expect(mineAck.ok && mineAck.snapshot.mine).toEqual([2]);

        const reserved = collect(watcher, 'tickets:reserved');
        const released = collect(watcher, 'tickets:released');
        const held = await holder.post('/api/cart', {
          competitionId: id,
          quantity: 2,
          selectedNumbers: [9, 8],
        });
        await waitFor(() => reserved.length === 1, 1000, 'tickets:reserved');
        expect(reserved[0]).toEqual({ competitionId: id, version: snapshot.version + 1, numbers: [8, 9] });

        await holder.request('DELETE', `/api/cart/${held.body.id}`);
        await waitFor(() => released.length === 1, 1000, 'tickets:released');
        expect(released[0]).toEqual({ competitionId: id, version: snapshot.version + 2, numbers: [8, 9] });
      } finally {
        watcher.disconnect();
        mineSocket.disconnect();
      }
    });

    it('answers a bad or unknown watch with ok: false', async () => {
      const socket = await connectSocket(server.url);
      try {
        expect(await watch(socket, 987654)).toEqual({ ok: false, message: 'Competition not found' });
        const bad = await new Promise((resolve) =>
          socket.emit('competition:watch', { competitionId: 'x' as unknown as number }, resolve),
        );
        expect(bad).toEqual({ ok: false, message: 'competitionId must be a positive whole number' });
      } finally {
        socket.disconnect();
      }
    });

    it('answers each change with the cart, its revision and the versions its broadcasts carry', async () => {
      const id = await insertCompetition(db, { totalTickets: 50 });
      const client = await shopper(server.url, id);
      const watcher = await connectSocket(server.url);
      const otherTab = await connectSocket(server.url, client.cookieHeader);
      try {
        const ack = await watch(watcher, id);
        if (!ack.ok) throw new Error('watch failed');
        const reserved = collect(watcher, 'tickets:reserved');
        const released = collect(watcher, 'tickets:released');
        const pushes = collect(otherTab, 'cart:updated');

        const first = await client.post('/api/cart', {
          competitionId: id,
          quantity: 2,
          selectedNumbers: [4, 5],
        });
        expect(first.status).toBe(201);
        expect(first.body.id).toEqual(expect.any(Number)); // the item itself, as before
        expect(first.body.cart.map((i: { id: number }) => i.id)).toEqual([first.body.id]);
        expect(first.body.versions).toEqual({ [id]: ack.snapshot.version + 1 });
        await waitFor(() => reserved.length === 1 && pushes.length === 1, 1000, 'broadcast and push');
        // The broadcast of this change carries the version the answer reported, and the push
        // to the other tab carries the answer's revision: the browser recognises both as its own.
        expect(reserved[0]!.version).toBe(first.body.versions[id]);
        expect(pushes[0]!.revision).toBe(first.body.cartRevision);

        const dip = await client.post('/api/cart', { competitionId: id, quantity: 1 });
        expect(dip.body.cartRevision).toBeGreaterThan(first.body.cartRevision);
        expect(dip.body.cart).toHaveLength(2);

        const patched = await client.request('PATCH', `/api/cart/${dip.body.id}`, { quantity: 3 });
        expect(patched.body.quantity).toBe(3);
        expect(patched.body.heldNumbers).toHaveLength(3);
        expect(patched.body.cartRevision).toBeGreaterThan(dip.body.cartRevision);

        const removed = await client.request('DELETE', `/api/cart/${first.body.id}`);
        expect(removed.body.ok).toBe(true);
        expect(removed.body.cart.map((i: { id: number }) => i.id)).toEqual([dip.body.id]);
        await waitFor(() => released.length === 1, 1000, 'tickets:released');
        expect(removed.body.versions).toEqual({ [id]: released[0]!.version });

        const listed = await client.get('/api/cart');
        expect(listed.headers.get('x-cart-revision')).toBe(String(removed.body.cartRevision));

        const cleared = await client.request('DELETE', '/api/cart');
        expect(cleared.body.cart).toEqual([]);
        expect(cleared.body.cartRevision).toBeGreaterThan(removed.body.cartRevision);
        expect(Object.keys(cleared.body.versions)).toEqual([String(id)]);
      } finally {
        watcher.disconnect();
        otherTab.disconnect();
      }
    });

    it("pushes cart:updated to the visitor's other tabs", async () => {
      const id = await insertCompetition(db);
      const client = await shopper(server.url, id);
      const otherTab = await connectSocket(server.url, client.cookieHeader);
      const stranger = await connectSocket(server.url);
      try {
        const updates = collect(otherTab, 'cart:updated');
        const strangerUpdates = collect(stranger, 'cart:updated');
        await client.post('/api/cart', { competitionId: id, quantity: 2 });
        await waitFor(() => updates.length === 1, 1000, 'cart:updated');
        expect(updates[0]!.items).toHaveLength(1);
        expect(updates[0]!.items[0]!.heldNumbers).toHaveLength(2);
        // That push went to the visitor's rooms in one broadcast: one to the stranger would be here.
        await barrier(stranger);
        expect(strangerUpdates).toEqual([]);
      } finally {
        otherTab.disconnect();
        stranger.disconnect();
      }
    });
  });
});
