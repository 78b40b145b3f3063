import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { transactionStats } from '../../../api/platform/unitOfWork';
import { sweepExpired } from '../../../api/tickets/expirySweeper';
import { shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { collect, connectSocket, roomBarrier, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

/** Rows that break "never held or sold twice" (the unique key should make this impossible). */
const duplicateRows = (db: Knex) =>
  db('tickets')
    .select('competitionId', 'number')
    .count({ n: '*' })
    .groupBy('competitionId', 'number')
    .having(db.raw('count(*) > 1'));

describe.skipIf(engineUnavailable())(`racing for tickets on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  // Hundreds of sessions here stand for hundreds of people, who would come from as many
  // addresses: the per-address hold limit (tests/api/tickets/perPersonCap.test.ts) is raised.
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { HOLD_RATE_PER_ADDRESS: '100000' } },
  );

  it('50 sessions race for one number: exactly one wins, 49 get 409, one row is held; the losers write nothing', async () => {
    const id = await insertCompetition(db, { totalTickets: 1000 });
    const shoppers = await Promise.all(Array.from({ length: 50 }, () => shopper(server.url, id)));
    const lineInserts: string[] = [];
    const record = (q: { sql: string }) => {
      if (/^insert into `cart_items`/i.test(q.sql)) lineInserts.push(q.sql);
    };
    db.on('query', record);
    const results = await Promise.all(
      shoppers.map((s) => s.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [777] })),
    ).finally(() => db.off('query', record));
    // The losers were refused before any transaction (one server process: the winner's hold in
    // flight, HoldsInFlight in quickRefusal/holdsInFlight.ts, or a plain read after it): only the
    // winner wrote a cart line.
    expect(lineInserts).toHaveLength(1);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const lost of results.filter((r) => r.status === 409))
      expect(lost.body.details.taken).toEqual([777]);
    expect(await db('tickets').where({ competitionId: id }).select('number')).toEqual([{ number: 777 }]);
    expect(await db('cartItems').where({ competitionId: id }).count({ n: '*' }).first()).toEqual({ n: 1 });
    const { version } = await db('competitionVersions').where({ competitionId: id }).first('version');
    expect(Number(version)).toBe(1);
    expect(await duplicateRows(db)).toEqual([]);
  });

  it('200 parallel Lucky Dips: every held number distinct, counts add up, one version per hold', async () => {
    const id = await insertCompetition(db, { totalTickets: 1000 });
    const shoppers = await Promise.all(Array.from({ length: 200 }, () => shopper(server.url, id)));
    const results = await Promise.all(
      shoppers.map((s, i) => s.post('/api/cart', { competitionId: id, quantity: 1 + (i % 3) })),
    );
    const failures = results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.text}`);
    expect(failures).toEqual([]);
    const wanted = results.reduce((sum, _r, i) => sum + 1 + (i % 3), 0);
    const held = results.flatMap((r) => r.body.heldNumbers as number[]);
    expect(held).toHaveLength(wanted);
    expect(new Set(held).size).toBe(wanted);
    const rows = await db('tickets').where({ competitionId: id }).count({ n: '*' }).first();
    expect(Number(rows?.n)).toBe(wanted);
    const { version } = await db('competitionVersions').where({ competitionId: id }).first('version');
    expect(Number(version)).toBe(200);
    expect(await duplicateRows(db)).toEqual([]);
  });

  it('100 people holding and releasing at once never deadlock with each other', async () => {
    const id = await insertCompetition(db, { totalTickets: 100_000 });
    const shoppers = await Promise.all(Array.from({ length: 100 }, () => shopper(server.url, id)));
    const deadlocksBefore = transactionStats.deadlockRetries;
    const statuses = await Promise.all(
      shoppers.map(async (s, i) => {
        const seen: number[] = [];
        for (let round = 0; round < 3; round++) {
          const held = await s.post('/api/cart', { competitionId: id, quantity: 1 + ((i + round) % 3) });
          seen.push(held.status);
          if (held.status === 201) seen.push((await s.request('DELETE', `/api/cart/${held.body.id}`)).status);
        }
        return seen;
      }),
    );
    expect(statuses.flat().filter((s) => s !== 201 && s !== 200)).toEqual([]);
    // Each person's cap check locks only their own cap_locks rows (migration 024) and then reads
    // without locks: no gap locks over the competition's tickets for another person's hold or
    // release to deadlock against (before: 206 retries in this race on MariaDB).
    expect(transactionStats.deadlockRetries - deadlocksBefore).toBe(0);
    expect(await db('tickets').where({ competitionId: id }).count({ n: '*' }).first()).toEqual({ n: 0 });
  });

  it('expired holds are released once, even with two sweepers running at the same time', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const buyers = await Promise.all(Array.from({ length: 5 }, () => shopper(server.url, id)));
    await Promise.all(
      buyers.map((b, i) =>
        b.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [i * 2 + 1, i * 2 + 2] }),
      ),
    );
    const watcher = await connectSocket(server.url);
    const owner = await connectSocket(server.url, buyers[0]!.cookieHeader);
    try {
      const ack = await watch(watcher, id);
      if (!ack.ok) throw new Error(ack.message);
      const released = collect(watcher, 'tickets:released');
      const expired = collect(owner, 'cart:expired');
      const past = Date.now() - 1;
      await db('cartItems').where({ competitionId: id }).update({ expiresAt: past });
      await db('tickets').where({ competitionId: id }).update({ expiresAt: past });
      const deps = { db, events: server.deps.events, ttlSeconds: 600 };
      const counts = await Promise.all([sweepExpired(deps), sweepExpired(deps), sweepExpired(deps)]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(10);
      await waitFor(() => released.flatMap((e) => e.numbers).length === 10, 1000, 'releases');
      // The sweeps published every release before they returned: a duplicate would be here now.
      await roomBarrier(server.deps.events, watcher, id);
      const numbers = released.flatMap((e) => e.numbers).sort((a, b) => a - b);
      expect(numbers).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]); // each exactly once
      const versions = released.map((e) => e.version);
      expect(new Set(versions).size).toBe(versions.length);
      expect(Math.min(...versions)).toBe(ack.snapshot.version + 1);
      await waitFor(() => expired.length === 1, 1000, 'cart:expired');
      expect(expired[0]!.itemIds).toHaveLength(1);
      expect(await db('tickets').where({ competitionId: id }).count({ n: '*' }).first()).toEqual({ n: 0 });
      expect(await db('cartItems').where({ competitionId: id }).count({ n: '*' }).first()).toEqual({ n: 0 });
    } finally {
      watcher.disconnect();
      owner.disconnect();
    }
  });
});
