import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisPrefixOf } from '../../../api/platform/config';
import { competitionRoom } from '../../../realtime/rooms';
import { attachRedisAdapter, type RealtimeServer } from '../../../realtime/server';
import { shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { redisAvailable, TEST_REDIS_URL } from '../../support/redis';
import { collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

/** One more app process (`server/main.ts`, as `npm run serve` runs it) on its own port. */
async function startProcess(databaseUrl: string, dataDir: string, children: ChildProcess[]) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      SEED_DEMO_DATA: '0',
      SWEEP_INTERVAL_MS: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 45_000) throw new Error('app process did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child };
}

/**
 * A round trip through Redis to `socket`, watching `competitionId` on a process of the site with
 * Redis prefix `prefix`: a Socket.IO node of that site in this process (the same adapter) sends
 * `draw:started` to the room. Redis hands one subscriber connection its messages in publish order,
 * so once that is on the socket, whatever its process had received from Redis before has arrived.
 */
async function redisBarrier(prefix: string, socket: TestSocket, competitionId: number) {
  const probe: RealtimeServer = new Server();
  const closeRedis = await attachRedisAdapter(probe, TEST_REDIS_URL, prefix);
  try {
    const arrived = collect(socket, 'draw:started');
    probe.to(competitionRoom(competitionId)).emit('draw:started', { competitionId });
    await waitFor(() => arrived.length > 0, 5000, 'the probe through Redis');
  } finally {
    // Not probe.close(): it closes an engine this server, attached to no HTTP server, does not have.
    await probe.of('/').adapter.close();
    await closeRedis();
  }
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

// Two app processes on one MariaDB and one Redis: a change made through one process reaches
// sockets connected to the other.
describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())('scale-out over Redis', () => {
  let database: TestDatabase;
  const children: ChildProcess[] = [];
  let a: { url: string; child: ChildProcess };
  let b: { url: string; child: ChildProcess };
  let skip = false;

  beforeAll(async () => {
    skip = !(await redisAvailable('the two-process Redis test'));
    if (skip) return;
    database = await createTestDatabase();
    // Both start at once on the empty database: migrations and the admin account must not race.
    [a, b] = await Promise.all([
      startProcess(database.databaseUrl!, database.dataDir, children),
      startProcess(database.databaseUrl!, database.dataDir, children),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(children.map(stop));
    await database?.drop();
  });

  it('a hold made through process A reaches a socket on process B with version + 1, and its release too', async (ctx) => {
    if (skip) ctx.skip();
    const id = await insertCompetition(database.db, { totalTickets: 100 });
    const watcher = await connectSocket(b.url);
    try {
      const ack = await watch(watcher, id);
      if (!ack.ok) throw new Error(ack.message);
      const reserved = collect(watcher, 'tickets:reserved');
      const released = collect(watcher, 'tickets:released');
      const buyer = await shopper(a.url, id);
      const started = Date.now();
      const held = await buyer.post('/api/cart', {
        competitionId: id,
        quantity: 2,
        selectedNumbers: [11, 12],
      });
      expect(held.status).toBe(201);
      await waitFor(() => reserved.length === 1, 1000, 'tickets:reserved on the other process');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(reserved[0]).toEqual({
        competitionId: id,
        version: ack.snapshot.version + 1,
        numbers: [11, 12],
      });
      // The session is in the database, so the same visitor can carry on through process B.
      const sameVisitorOnB = Object.assign(Object.create(Object.getPrototypeOf(buyer)), buyer, {
        baseUrl: b.url,
      });
      expect((await sameVisitorOnB.request('DELETE', `/api/cart/${held.body.id}`)).status).toBe(200);
      await waitFor(() => released.length === 1, 1000, 'tickets:released');
      expect(released[0]!.version).toBe(ack.snapshot.version + 2);
    } finally {
      watcher.disconnect();
    }
  });

  it('another site on the same Redis (its own database) hears none of these events', async (ctx) => {
    if (skip) ctx.skip();
    // Staging and production sharing one Redis: a competition of the same id on each.
    const other = await createTestDatabase();
    try {
      const c = await startProcess(other.databaseUrl!, other.dataDir, children);
      const id = await insertCompetition(database.db, { totalTickets: 100 });
      let otherId = 0;
      while (otherId < id) otherId = await insertCompetition(other.db, { totalTickets: 100 });
      expect(otherId).toBe(id);
      const here = await connectSocket(b.url);
      const there = await connectSocket(c.url);
      try {
        for (const socket of [here, there]) {
          const ack = await watch(socket, id);
          if (!ack.ok) throw new Error(ack.message);
        }
        const heard = collect(here, 'tickets:reserved');
        const overheard = collect(there, 'tickets:reserved');
        const buyer = await shopper(a.url, id);
        expect(
          (await buyer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] })).status,
        ).toBe(201);
        await waitFor(() => heard.length === 1, 1000, 'tickets:reserved on this site');
        // A published the hold before B passed it on; a message the other site's process took
        // from A's channel would reach its socket before a later one on its own channel.
        await redisBarrier(redisPrefixOf(other.databaseUrl, other.dataDir), there, id);
        expect(overheard).toEqual([]);
      } finally {
        here.disconnect();
        there.disconnect();
        await stop(c.child);
      }
    } finally {
      await other.drop();
    }
  }, 60_000);

  it("the draw room's viewer count adds up the viewers on both processes", async (ctx) => {
    if (skip) ctx.skip();
    const id = await insertCompetition(database.db, { totalTickets: 10 });
    const onA = await connectSocket(a.url);
    const onB = await connectSocket(b.url);
    try {
      const seenA = collect(onA, 'draw-room:viewers');
      const seenB = collect(onB, 'draw-room:viewers');
      for (const socket of [onA, onB])
        expect(await socket.timeout(5000).emitWithAck('draw-room:join', { competitionId: id })).toEqual({
          ok: true,
        });
      const latest = (seen: Array<{ viewers: number }>) => seen.at(-1)?.viewers;
      await waitFor(() => latest(seenA) === 2 && latest(seenB) === 2, 10_000, '2 viewers on both processes');
      onA.disconnect();
      await waitFor(() => latest(seenB) === 1, 10_000, '1 viewer once A left');
    } finally {
      onA.disconnect();
      onB.disconnect();
    }
  }, 30_000);
});
