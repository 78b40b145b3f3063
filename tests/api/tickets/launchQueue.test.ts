import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { runLaunchQueues } from '../../../api/tickets/queue/admission';
import { QUEUE_REQUIRED_MESSAGE, queueCommitment, shuffledOrder } from '../../../contract/launchQueue';
import { shopper } from '../../support/accounts';
import { put, signedInAdmin } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// A fair queue for hot launches (docs/draws.md#launch-queue): one place per visitor, the order
// fixed at the opening by a committed seed anyone can check, admission at the rate, and holds
// refused (403 queue_required) without an admission while anyone waits. The job runs with the
// test's `now`; nothing sleeps.

const MINUTE = 60_000;
const PER_ADDRESS = 6;

describe.skipIf(engineUnavailable())(`the launch queue on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    { env: { LAUNCH_QUEUE_PER_ADDRESS: String(PER_ADDRESS) } },
  );
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  const jobDeps = () => ({ db, events: server.deps.events, settings: server.deps.config.launchQueue });

  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/admin/competitions', {
      title: `Queued ${Math.random().toString(36).slice(2, 8)}`,
      ticketPrice: 1,
      totalTickets: 100,
      endDate: new Date(Date.now() + 7 * 24 * 60 * MINUTE).toISOString(),
      details: { category: 'Electronics' },
      startsAt: new Date(Date.now() + 5 * MINUTE).toISOString(),
      launchQueue: true,
      ...overrides,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const join = (client: TestClient, id: number) => client.post(`/api/competitions/${id}/queue`);
  const hold = (client: TestClient, id: number) =>
    client.post('/api/cart', { competitionId: id, quantity: 1 });
  /** Visitors who answered the skill question and joined, before the opening. */
  const joined = async (id: number, n: number) => {
    const visitors: Array<{ client: TestClient; entryId: number }> = [];
    for (let i = 0; i < n; i++) {
      const client = await shopper(server.url, id);
      const res = await join(client, id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'waiting' });
      visitors.push({ client, entryId: res.body.entryId });
    }
    return visitors;
  };
  /** The opening comes (one second ago, so holds see it), after everyone so far joined. */
  const openNow = async (id: number) => {
    const startsAt = Date.now() - 1000;
    await db('competitions').where({ id }).update({ startsAt });
    await db('launchQueueEntries')
      .where({ competitionId: id })
      .update({ joinedAt: startsAt - MINUTE });
    return startsAt;
  };
  const positionOf = async (entryId: number) =>
    Number((await db('launchQueueEntries').where({ id: entryId }).first('position')).position);

  it('needs an opening time, publishes the commitment, and is fixed once someone joined', async () => {
    const bare = await admin.post('/api/admin/competitions', {
      title: 'No opening',
      ticketPrice: 1,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'Cash' },
      launchQueue: true,
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('A launch queue needs an opening time (startsAt).');
    const id = await create();
    const row = await db('competitions').where({ id }).first('queueSeed', 'queueCommitment');
    expect(row.queueCommitment).toBe(await queueCommitment(row.queueSeed));
    const detail = (await (await shopper(server.url)).get(`/api/competitions/${id}`)).body;
    expect(detail).toMatchObject({
      launchQueue: true,
      queueCommitment: row.queueCommitment,
      queueSeed: null,
    });
    await joined(id, 1);
    const off = await put(admin, `/api/admin/competitions/${id}`, { launchQueue: false });
    expect(off.status).toBe(409);
    expect((await db('competitions').where({ id }).first('launchQueue')).launchQueue).toBeTruthy();
    expect((await put(admin, `/api/admin/competitions/${id}`, { startsAt: null })).status).toBe(400);
    // The opening may still move: whoever joined before it is shuffled.
    const sooner = await put(admin, `/api/admin/competitions/${id}`, {
      startsAt: new Date(Date.now() + 2000).toISOString(),
    });
    expect(sooner.status, sooner.text).toBe(200);
  });

  it('opens for joining within its window, gives one place per visitor, and caps places per address', async () => {
    const plain = await create({ launchQueue: false });
    const visitor = await shopper(server.url);
    expect((await join(visitor, plain)).status).toBe(404);
    const later = await create({ startsAt: new Date(Date.now() + 2 * 60 * MINUTE).toISOString() });
    const early = await join(visitor, later);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^The queue opens at .+, 10 minutes before the launch\.$/);

    const id = await create();
    const first = await join(visitor, id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'waiting', entryId: expect.any(Number) });
    const again = await join(visitor, id);
    expect(again.body.entryId).toBe(first.body.entryId);
    expect(await db('launchQueueEntries').where({ competitionId: id }).count({ n: '*' })).toEqual([{ n: 1 }]);
    // Every test client comes from 127.0.0.1: the address's places run out at PER_ADDRESS.
    await joined(id, PER_ADDRESS - 1);
    const refused = await join(await shopper(server.url), id);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      'Too many places in this queue come from your network. Please try again from another connection.',
    );
    expect(await db('launchQueueEntries').where({ competitionId: id }).count({ n: '*' })).toEqual([
      { n: PER_ADDRESS },
    ]);
    // Rows keep a keyed hash of the address, never the address.
    const keys = await db('launchQueueEntries').where({ competitionId: id }).distinct('addressKey');
    expect(keys).toHaveLength(1);
    expect(keys[0].addressKey).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shuffles by the published seed at the opening and puts late joiners at the back in arrival order', async () => {
    const id = await create();
    const visitors = await joined(id, 4);
    expect((await shopper(server.url).then((c) => c.get(`/api/competitions/${id}/queue/order`))).status).toBe(
      409,
    );
    const startsAt = await openNow(id);
    expect(await runLaunchQueues(jobDeps(), startsAt + 10)).toContain(id);
    const late = await joined(id, 2);
    await runLaunchQueues(jobDeps(), startsAt + 20);

    const order = await (await shopper(server.url)).get(`/api/competitions/${id}/queue/order`);
    expect(order.status).toBe(200);
    const { seed, commitment, entries } = order.body;
    expect(await queueCommitment(seed)).toBe(commitment);
    const detail = (await (await shopper(server.url)).get(`/api/competitions/${id}`)).body;
    expect(detail).toMatchObject({ queueSeed: seed, queueCommitment: commitment });
    // Anyone recomputes the early positions from the seed and the entry ids.
    const expected = await shuffledOrder(
      seed,
      visitors.map((v) => v.entryId),
    );
    expect(entries).toEqual([
      ...expected.map((entryId, i) => ({ entryId, joinedBeforeOpening: true, position: i + 1 })),
      ...late.map((v, i) => ({ entryId: v.entryId, joinedBeforeOpening: false, position: 5 + i })),
    ]);
    for (const v of visitors) expect(await positionOf(v.entryId)).toBe(expected.indexOf(v.entryId) + 1);
  });

  it('admits at the rate, refuses holds without admission, tells only the right sockets, and opens to all once empty', async () => {
    const id = await create();
    const visitors = await joined(id, 3);
    const sockets3 = await Promise.all(
      visitors.map(async (v) => {
        const s = await connectSocket(server.url, v.client.cookieHeader);
        sockets.push(s);
        return s;
      }),
    );
    const admitted = sockets3.map((s) => collect(s, 'queue:admitted'));
    const positions = sockets3.map((s) => collect(s, 'queue:position'));
    const bystander = await connectSocket(server.url, (await shopper(server.url, id)).cookieHeader);
    sockets.push(bystander);
    const bystanderHeard = [collect(bystander, 'queue:admitted'), collect(bystander, 'queue:position')];

    // Before the opening: 409 not_open_yet, as any scheduled launch.
    expect((await hold(visitors[0]!.client, id)).body.code).toBe('not_open_yet');
    const rate = await put(admin, `/api/admin/competitions/${id}/queue`, { admitPerSecond: 1 });
    expect(rate.status, rate.text).toBe(200);
    expect(rate.body).toMatchObject({ waiting: 3, admitted: 0, admitPerSecond: 1 });
    for (const bad of [0, 1001, 'fast', 1.5]) {
      expect((await put(admin, `/api/admin/competitions/${id}/queue`, { admitPerSecond: bad })).status).toBe(
        400,
      );
    }
    expect((await db('competitions').where({ id }).first('queueAdmitPerSecond')).queueAdmitPerSecond).toBe(1);

    const startsAt = await openNow(id);
    await runLaunchQueues(jobDeps(), startsAt); // the shuffle
    const byPosition = [...visitors].sort((a, b) => a.entryId - b.entryId);
    const pos = new Map<number, number>();
    for (const v of visitors) pos.set(v.entryId, await positionOf(v.entryId));
    byPosition.sort((a, b) => pos.get(a.entryId)! - pos.get(b.entryId)!);
    const indexOf = (v: (typeof visitors)[number]) => visitors.indexOf(v);

    const refused = await hold(byPosition[0]!.client, id);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'queue_required', message: QUEUE_REQUIRED_MESSAGE });
    await waitFor(
      () => positions.every((p) => p.length >= 1),
      5000,
      'queue:position on every waiting socket',
    );
    for (const [rank, v] of byPosition.entries())
      expect(positions[indexOf(v)]!.at(-1)).toEqual({
        competitionId: id,
        position: rank + 1,
        ahead: rank,
        etaSeconds: rank,
      });

    // Half a second: nobody yet at one a second; a full second: the first place only.
    await runLaunchQueues(jobDeps(), startsAt + 500);
    expect(
      await db('launchQueueEntries').where({ competitionId: id }).whereNotNull('admittedAt'),
    ).toHaveLength(0);
    await runLaunchQueues(jobDeps(), startsAt + 1000);
    const first = indexOf(byPosition[0]!);
    await waitFor(() => admitted[first]!.length === 1, 5000, 'queue:admitted');
    expect(admitted[first]![0]).toEqual({
      competitionId: id,
      expiresAt: new Date(startsAt + 1000 + 10 * MINUTE).toISOString(),
    });
    const place = await join(byPosition[0]!.client, id);
    expect(place.body).toMatchObject({ status: 'admitted', expiresAt: admitted[first]![0]!.expiresAt });
    expect((await join(byPosition[1]!.client, id)).body).toMatchObject({
      status: 'waiting',
      position: 1,
      ahead: 0,
    });
    expect((await hold(byPosition[0]!.client, id)).status).toBe(201);
    expect((await hold(byPosition[1]!.client, id)).status).toBe(403);
    const stranger = await shopper(server.url, id);
    expect((await hold(stranger, id)).body.code).toBe('queue_required');

    // The fraction carries: 1.5 s later one more, 0.5 s after that the last.
    await runLaunchQueues(jobDeps(), startsAt + 2500);
    expect(
      await db('launchQueueEntries').where({ competitionId: id }).whereNotNull('admittedAt'),
    ).toHaveLength(2);
    await runLaunchQueues(jobDeps(), startsAt + 3000);
    await waitFor(() => admitted.every((a) => a.length === 1), 5000, 'queue:admitted on every socket');
    expect((await db('competitions').where({ id }).first('queueDrainedAt')).queueDrainedAt).not.toBeNull();
    // Nobody waits: open to all, with no place needed.
    expect((await hold(stranger, id)).status).toBe(201);
    await barrier(bystander);
    expect(bystanderHeard).toEqual([[], []]);
    const view = await admin.get(`/api/admin/competitions/${id}/queue`);
    expect(view.body).toMatchObject({ competitionId: id, waiting: 0, admitted: 3, admitPerSecond: 1 });
    expect(view.body.holdsPerSecond).toBeGreaterThan(0);
    expect(await runLaunchQueues(jobDeps(), startsAt + 4000)).not.toContain(id);
  });

  // The invariants under real concurrency (MariaDB; SQLite runs the same requests one by one).
  it('gives one place to many parallel joins of one visitor, and never more places per address than the cap', async () => {
    const id = await create();
    const visitor = await shopper(server.url);
    const answers = await Promise.all(Array.from({ length: 20 }, () => join(visitor, id)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.entryId)).size).toBe(1);
    const perOwner = await db('launchQueueEntries')
      .where({ competitionId: id })
      .groupBy('ownerKey')
      .select('ownerKey')
      .count({ n: '*' });
    expect(perOwner.map((r) => Number(r.n))).toEqual([1]);

    const others = await Promise.all(Array.from({ length: PER_ADDRESS + 4 }, () => shopper(server.url)));
    const raced = await Promise.all(others.map((c) => join(c, id)));
    const kept = raced.filter((r) => r.status === 200).length;
    expect(raced.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const [counted] = await db('launchQueueEntries').where({ competitionId: id }).count({ n: '*' });
    const n = counted?.n;
    expect(Number(n)).toBe(kept + 1);
    expect(Number(n)).toBeLessThanOrEqual(PER_ADDRESS);
  });
});
