import { execFileSync } from 'node:child_process';
import { io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TicketsEvent } from '../../../contract/realtime';
import { shopper } from '../../support/accounts';
import { type AppProcess, freePort, startAppProcess } from '../../support/appProcess';
import { insertCompetition } from '../../support/fixtures';
import { redisAvailable, TEST_REDIS_URL } from '../../support/redis';
import { type TestSocket, waitFor, watch } from '../../support/sockets';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

const METRICS_TOKEN = 'cluster-test-metrics-token';

/** socketio_connected_sockets as one scrape of GET /metrics reports it. */
async function scrapedSockets(url: string): Promise<number> {
  const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('socketio_connected_sockets'));
  return Number(line?.split(' ').at(-1));
}

/** The worker processes of a primary (its children running the app, not tsx's esbuild), by pid. */
const workersOf = (primary: AppProcess): number[] => {
  try {
    return execFileSync('pgrep', ['-P', String(primary.child.pid), '-f', 'server/main.ts'], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map(Number)
      .sort((a, b) => a - b);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
};

/** One step of a test, failing with its name after `ms` rather than hanging until the test's timeout. */
async function step<T>(what: string, promise: Promise<T>, ms = 8000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Connects as a browser would: an attempt that has not connected within 3 s is dropped for a new one. */
async function connected(url: string, transport: 'websocket' | 'polling'): Promise<TestSocket> {
  for (let attempt = 1; ; attempt++) {
    const socket: TestSocket = io(url, {
      transports: [transport],
      upgrade: false,
      forceNew: true,
      reconnection: false,
      extraHeaders: { Origin: new URL(url).origin },
    });
    const ok = await new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => resolve(false), 3000);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
      socket.once('connect_error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    if (ok) return socket;
    socket.disconnect();
    // Rarely (about one run in 15 under load) a WebSocket handed to a worker gets the worker's
    // open packet but its CONNECT never arrives; a browser's client reconnects the same way.
    console.warn(`a ${transport} connection did not connect within 3 s (attempt ${attempt}): trying again`);
    if (attempt === 3) throw new Error(`a ${transport} connection did not connect in 3 attempts`);
  }
}

/** A browser-like socket: WebSocket, or long-polling only (a proxy that refuses upgrades). */
async function watcher(url: string, transport: 'websocket' | 'polling', competitionId: number) {
  const socket = await connected(url, transport);
  const ack = await watch(socket, competitionId, 10_000);
  if (!ack.ok) throw new Error(ack.message);
  const reserved: TicketsEvent[] = [];
  socket.on('tickets:reserved', (e) => reserved.push(e));
  return { socket, reserved, version: ack.snapshot.version };
}

// WEB_CONCURRENCY=2 (server/cluster.ts): one port, two workers, Socket.IO between them through
// Redis, long-polling sessions kept on their worker (docs/operations.md#several-workers-on-one-port).
describe.skipIf(testEngine() !== 'mysql' || engineUnavailable())('WEB_CONCURRENCY=2 on one port', () => {
  let database: TestDatabase;
  let primary: AppProcess;
  let skip = false;

  beforeAll(async () => {
    skip = !(await redisAvailable('the cluster test'));
    if (skip) return;
    database = await createTestDatabase();
    primary = startAppProcess({
      port: await freePort(),
      databaseUrl: database.databaseUrl,
      dataDir: database.dataDir,
      env: {
        WEB_CONCURRENCY: '2',
        REDIS_URL: TEST_REDIS_URL,
        SWEEP_INTERVAL_MS: '0',
        METRICS_TOKEN: METRICS_TOKEN,
      },
    });
    await primary.ready(90_000);
  }, 120_000);
  // A failure shows what the primary and its workers logged (a worker that died, a stuck start).
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(primary?.log.join(''));
  });
  afterAll(async () => {
    await primary?.kill('SIGKILL');
    await database?.drop();
  });

  it('serves from two workers; a hold reaches WebSocket and long-polling watchers on both; metrics sum them', async (ctx) => {
    if (skip) ctx.skip();
    expect(workersOf(primary)).toHaveLength(2);
    const id = await insertCompetition(database.db, { totalTickets: 100 });
    // Least-connection spreads the sockets over both workers; a polling session whose requests
    // reached the other worker would fail ("Session ID unknown") without the sticky routing.
    const watchers: Array<Awaited<ReturnType<typeof watcher>>> = [];
    try {
      for (const transport of ['websocket', 'polling', 'websocket', 'polling'] as const)
        watchers.push(await step(`a ${transport} watcher`, watcher(primary.url, transport, id), 20_000));
      const buyer = await step('the skill answer', shopper(primary.url, id));
      const held = await step(
        'the hold',
        buyer.post('/api/cart', { competitionId: id, quantity: 2, selectedNumbers: [5, 6] }),
      );
      expect(held.status).toBe(201);
      await waitFor(
        () => watchers.every((w) => w.reserved.length === 1),
        3000,
        'tickets:reserved everywhere',
      );
      for (const w of watchers)
        expect(w.reserved[0]).toEqual({ competitionId: id, version: w.version + 1, numbers: [5, 6] });
      // Whichever worker answers the scrape reports both workers' sockets (2 each), summed.
      for (let i = 0; i < 4; i++) expect(await step('a metrics scrape', scrapedSockets(primary.url))).toBe(4);
    } finally {
      for (const w of watchers) w.socket.disconnect();
    }
  });

  it('replaces a worker that dies, and sends no connection to the replacement until it is ready', async (ctx) => {
    if (skip) ctx.skip();
    const id = await insertCompetition(database.db, { totalTickets: 10 });
    // One socket on each worker: the survivor then has more sessions than the replacement, which
    // least-connection would pick while it is still starting (and that connection would hang).
    const watchers = [
      await watcher(primary.url, 'websocket', id),
      await watcher(primary.url, 'websocket', id),
    ];
    try {
      const before = workersOf(primary);
      process.kill(before[0]!, 'SIGKILL');
      let after: number[] = [];
      await waitFor(
        () => {
          after = workersOf(primary);
          return after.length === 2 && !after.includes(before[0]!);
        },
        60_000,
        'a new worker in place of the dead one',
        100,
      );
      expect(after).toContain(before[1]);
      // The replacement exists and is starting (it takes over a second): each request is answered
      // at once, by the survivor.
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${primary.url}/api/health`, { signal: AbortSignal.timeout(5000) });
        expect(res.status).toBe(200);
      }
      expect(await primary.ready(60_000)).toBe(true);
      for (let i = 0; i < 6; i++) expect((await fetch(`${primary.url}/api/health`)).status).toBe(200);
    } finally {
      for (const w of watchers) w.socket.disconnect();
    }
  }, 90_000);

  it('drains every worker on SIGTERM and exits 0', async (ctx) => {
    if (skip) ctx.skip();
    const workers = workersOf(primary);
    expect(await primary.kill('SIGTERM')).toBe(0);
    const alive = workers.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 60_000);
});
