import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { competitionSnapshot, SnapshotCache, watchSnapshot } from '../../../api/tickets/snapshot';
import { shopper } from '../../support/accounts';
import { holdTickets, insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const withoutClock = <T extends { serverTime: string }>(s: T | null) => {
  if (!s) throw new Error('no snapshot');
  const { serverTime: _, ...rest } = s;
  return rest;
};

// The watch snapshot's bitmaps are read once per (competition, version) and shared; each
// watcher's own numbers are still its own (api/tickets/snapshot.ts).
describe.skipIf(engineUnavailable())(`shared watch snapshots on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('reads the bitmaps once for concurrent watchers, and again only after a change', async () => {
    const id = await insertCompetition(db, { totalTickets: 1_000 });
    await sellTickets(db, id, await insertUser(db), [5, 500]);
    await holdTickets(db, id, [7, 8], Date.now() + 600_000); // held by guest-test
    const holder = { guestId: 'guest-test', userId: null };
    const cache = new SnapshotCache(db);

    const owners = Array.from({ length: 20 }, (_, i) => (i % 2 ? holder : null));
    const snapshots = await Promise.all(owners.map((o) => watchSnapshot(db, cache, id, o)));
    expect(cache.reads).toBe(1);
    // Exactly what the one-transaction read gives each of them.
    const forHolder = withoutClock(await competitionSnapshot(db, id, holder));
    const forStranger = withoutClock(await competitionSnapshot(db, id, null));
    expect(forHolder.mine).toEqual([7, 8]);
    expect(forStranger.mine).toEqual([]);
    snapshots.forEach((s, i) => {
      expect(withoutClock(s)).toEqual(owners[i] ? forHolder : forStranger);
    });

    // A hold bumps the version: the next watch reads the new state, once.
    const buyer = await shopper(server.url, id);
    const held = await buyer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [9] });
    expect(held.status).toBe(201);
    const after = await Promise.all([
      watchSnapshot(db, cache, id, null),
      watchSnapshot(db, cache, id, holder),
    ]);
    expect(cache.reads).toBe(2);
    expect(after.map((s) => s?.version)).toEqual([held.body.versions[id], held.body.versions[id]]);
    expect(withoutClock(after[0]!)).toEqual(withoutClock(await competitionSnapshot(db, id, null)));
    expect(after[1]?.mine).toEqual([7, 8]);
  });

  it("names the numbers the watcher's account bought, to that account only", async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const buyer = await insertUser(db);
    await sellTickets(db, id, buyer, [15, 7, 12]);
    await sellTickets(db, id, await insertUser(db), [3]);
    const cache = new SnapshotCache(db);
    const asBuyer = { guestId: 'guest-buyer', userId: buyer };
    for (const snap of [
      await watchSnapshot(db, cache, id, asBuyer),
      await competitionSnapshot(db, id, asBuyer),
    ]) {
      expect(snap?.owned).toEqual([7, 12, 15]);
    }
    const stranger = { guestId: 'guest-other', userId: await insertUser(db) };
    expect((await watchSnapshot(db, cache, id, stranger))?.owned).toEqual([]);
    expect((await competitionSnapshot(db, id, null))?.owned).toEqual([]);
  });

  it('keeps only the most recently watched competitions', async () => {
    const ids = [
      await insertCompetition(db, { totalTickets: 50 }),
      await insertCompetition(db, { totalTickets: 60 }),
      await insertCompetition(db, { totalTickets: 70 }),
    ];
    const cache = new SnapshotCache(db, 2);
    for (const id of ids) await watchSnapshot(db, cache, id, null);
    expect(cache.reads).toBe(3);
    await watchSnapshot(db, cache, ids[2]!, null); // kept
    expect(cache.reads).toBe(3);
    await watchSnapshot(db, cache, ids[0]!, null); // dropped as the least recently used
    expect(cache.reads).toBe(4);
    expect(await watchSnapshot(db, cache, 987_654, null)).toBeNull();
  });
});
