// `npm run bench`: the live ticket engine's benchmarks (fan-out, contention, snapshot size,
// memory per socket). Every figure is the median of RUNS runs, and each is shown with a baseline
// measured in the same run. Results are printed as Markdown for docs/performance.md.
//   npm run bench                 all scenarios, 3 runs each
//   npm run bench -- --runs 1     quicker
//   npm run bench -- fanout       one scenario (fanout | contention | snapshot)
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import knexFactory, { type Knex } from 'knex';
import { listAvailableNumbers } from '../../api/catalogue/numbers';
import { competitionSnapshot } from '../../api/tickets/snapshot';
import { encodeBitmap } from '../../contract/bitmap';
import { migrateLatest, openDatabase } from '../../db/connection';
import { SNAPSHOT_COMPRESSION } from '../../realtime/server';
import { pickDistinct, seededRandom } from '../../server/seeds/random';

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 3) || 3;
const only = args.find((a) => ['fanout', 'contention', 'snapshot'].includes(a));
const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const here = path.dirname(new URL(import.meta.url).pathname);
const CLIENT_PROCESSES = 4;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function percentile(histogram: Record<number, number>, p: number): number {
  const entries = Object.entries(histogram)
    .map(([k, v]) => [Number(k), v] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, v]) => sum + v, 0);
  let seen = 0;
  for (const [ms, n] of entries) {
    seen += n;
    if (seen >= total * p) return ms;
  }
  return Number.NaN;
}

const merge = (target: Record<number, number>, h: Record<number, number>) => {
  for (const [k, v] of Object.entries(h)) target[Number(k)] = (target[Number(k)] ?? 0) + v;
};

function child(script: string, env: Record<string, string>, execArgv: string[] = []): ChildProcess {
  return fork(path.join(here, script), [], {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

function next<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      proc.off('message', onMessage);
      resolve(m as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) =>
      reject(new Error(`${path.basename(String(proc.spawnargs.at(-1)))} exited (${code})`)),
    );
  });
}

const stop = (proc: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });

async function insertCompetition(db: Knex, title: string, totalTickets: number) {
  const now = Date.now();
  const [id] = await db('competitions').insert({
    title,
    description: 'Benchmark competition',
    image: null,
    ticketPricePence: 100,
    totalTickets,
    ticketsSold: 0,
    endDate: now + 30 * 86_400_000,
    autoWin: false,
    status: 'active',
    features: '[]',
    details: '{"category":"Cash"}',
    createdAt: now,
    updatedAt: now,
  });
  return Number(id);
}

// --- fan-out ---------------------------------------------------------------------------------

interface FanoutResult {
  p50: number;
  p95: number;
  p99: number;
  gaps: number;
  missing: number;
  heapMB: number;
  rssMB: number;
  idleHeapMB: number;
  idleRssMB: number;
}

async function fanoutRun(sockets: number, serverScript = 'server.ts'): Promise<FanoutResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  await migrateLatest(db);
  const competitionId = await insertCompetition(db, 'Fan-out', 1000);
  await db.destroy();
  const profile = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const server = child(serverScript, { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' }, [
    '--expose-gc',
    ...profile,
  ]);
  const { url } = await next<{ url: string }>(server, 'ready');
  const idle = await (async () => {
    server.send({ type: 'memory' });
    return next<{ heapUsed: number; rss: number }>(server, 'memory');
  })();
  const processes = sockets < CLIENT_PROCESSES ? 1 : CLIENT_PROCESSES;
  const clients = Array.from({ length: processes }, (_, i) =>
    child('fanoutClient.ts', {
      BENCH_URL: url,
      BENCH_COMPETITION: String(competitionId),
      BENCH_SOCKETS: String(Math.floor(sockets / processes) + (i < sockets % processes ? 1 : 0)),
    }),
  );
  await Promise.all(clients.map((c) => next(c, 'connected')));
  server.send({ type: 'memory' });
  const loaded = await next<{ heapUsed: number; rss: number }>(server, 'memory');
  server.send({ type: 'emit', competitionId, count: 100, perSecond: 10 });
  const { published } = await next<{ published: Record<number, number> }>(server, 'emitted');
  await new Promise((r) => setTimeout(r, 1500));
  const histogram: Record<number, number> = {};
  let gaps = 0;
  let missing = 0;
  const reports = clients.map((c) =>
    next<{ histogram: Record<number, number>; gaps: number; missing: number }>(c, 'report'),
  );
  for (const c of clients) c.send({ type: 'report', published });
  for (const r of await Promise.all(reports)) {
    merge(histogram, r.histogram);
    gaps += r.gaps;
    missing += r.missing;
  }
  for (const c of clients) c.send({ type: 'close' });
  await Promise.all(clients.map(stop));
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const mb = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
  return {
    p50: percentile(histogram, 0.5),
    p95: percentile(histogram, 0.95),
    p99: percentile(histogram, 0.99),
    gaps,
    missing,
    heapMB: mb(loaded.heapUsed),
    rssMB: mb(loaded.rss),
    idleHeapMB: mb(idle.heapUsed),
    idleRssMB: mb(idle.rss),
  };
}

async function fanout() {
  const lines = [
    '### Fan-out: sockets watching one competition, 10 ticket events per second for 10 s',
    '',
    `Median of ${RUNS} runs; clients (offering permessage-deflate, as browsers do) in ${CLIENT_PROCESSES} processes on the same 2-core machine as the server. Baselines in the same run: 1 socket (the ratio column), and at the largest size a plain Socket.IO server (\`naiveServer.ts\`) and bare \`ws\` writing one shared frame per event (\`rawWsServer.ts\`, the machine's floor).`,
    '',
    '| server | sockets | p50 ms | p95 ms | p99 ms | p99 / 1-socket p99 | gaps | not arrived 1.5 s after the last event | server heap MB | server RSS MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  let baselineP99 = 0;
  const memory: Array<[number, number, number]> = [];
  const sizes = process.env.BENCH_SOCKETS
    ? process.env.BENCH_SOCKETS.split(',').map(Number)
    : [1, 1000, 5000, 10000];
  const largest = Math.max(...sizes);
  const scenarios: Array<[string, string, number]> = [
    ...sizes.map((n): [string, string, number] => ['this server', 'server.ts', n]),
    ['baseline: plain Socket.IO', 'naiveServer.ts', largest],
    ['baseline: bare ws, shared frame', 'rawWsServer.ts', largest],
  ];
  for (const [label, script, n] of scenarios) {
    const runs: FanoutResult[] = [];
    for (let r = 0; r < RUNS; r++) {
      runs.push(await fanoutRun(n, script));
      process.stderr.write(`fan-out ${label}, ${n} sockets, run ${r + 1}: p99 ${runs.at(-1)!.p99} ms\n`);
    }
    const m = (f: (x: FanoutResult) => number) => median(runs.map(f));
    if (script === 'server.ts') {
      if (baselineP99 === 0) {
        baselineP99 = Math.max(
          1,
          m((x) => x.p99),
        );
        memory.push([0, m((x) => x.idleHeapMB), m((x) => x.idleRssMB)]);
      }
      memory.push([n, m((x) => x.heapMB), m((x) => x.rssMB)]);
    }
    lines.push(
      `| ${label} | ${n.toLocaleString('en-GB')} | ${m((x) => x.p50)} | ${m((x) => x.p95)} | ${m((x) => x.p99)} | ${(m((x) => x.p99) / baselineP99).toFixed(1)} | ${m((x) => x.gaps)} | ${m((x) => x.missing)} | ${m((x) => x.heapMB)} | ${m((x) => x.rssMB)} |`,
    );
  }
  const [, heap0, rss0] = memory[0]!;
  const [nLast, heapLast, rssLast] = memory.at(-1)!;
  lines.push(
    '',
    `Memory per watching socket (this server, after GC, 0 -> ${nLast.toLocaleString('en-GB')} sockets): heap ${(((heapLast - heap0) * 1024) / Math.max(1, nLast)).toFixed(1)} KB, RSS ${(((rssLast - rss0) * 1024) / Math.max(1, nLast)).toFixed(1)} KB.`,
    '',
  );
  return lines.join('\n');
}

// --- contention on MariaDB -------------------------------------------------------------------

interface ContentionResult {
  holdsPerSecond: number;
  p50: number;
  p99: number;
  conflicts: number;
  serverErrors: number;
  deadlockRetries: number;
  collisionRetries: number;
  duplicates: number;
}

async function contentionRun(
  mode: 'hot' | 'lucky' | 'ping',
  buyers: number,
  durationMs: number,
): Promise<ContentionResult> {
  const name = `wcp_bench_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: MYSQL_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  const dbUrl = new URL(MYSQL_URL);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: dbUrl.toString() });
  try {
    await migrateLatest(db);
    const competitionId = await insertCompetition(db, mode, mode === 'hot' ? 1000 : 100_000);
    const profile = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const server = child(
      'server.ts',
      {
        DATABASE_URL: dbUrl.toString(),
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
      },
      profile,
    );
    const { url } = await next<{ url: string }>(server, 'ready');
    const processes = Math.min(CLIENT_PROCESSES, buyers);
    const clients = Array.from({ length: processes }, (_, i) =>
      child('buyerClient.ts', {
        BENCH_URL: url,
        BENCH_MODE: mode,
        BENCH_COMPETITION: String(competitionId),
        BENCH_BUYERS: String(Math.floor(buyers / processes) + (i < buyers % processes ? 1 : 0)),
      }),
    );
    await Promise.all(clients.map((c) => next(c, 'ready')));
    const reports = clients.map((c) =>
      next<{ statuses: Record<number, number>; histogram: Record<number, number>; holds: number }>(
        c,
        'report',
      ),
    );
    for (const c of clients) c.send({ type: 'go', durationMs });
    const histogram: Record<number, number> = {};
    const statuses: Record<number, number> = {};
    let holds = 0;
    for (const r of await Promise.all(reports)) {
      merge(histogram, r.histogram);
      merge(statuses, r.statuses);
      holds += r.holds;
    }
    process.stderr.write(`  statuses ${JSON.stringify(statuses)}\n`);
    server.send({ type: 'stats' });
    const stats = await next<{ deadlockRetries: number; collisionRetries: number }>(server, 'stats');
    for (const c of clients) c.send({ type: 'close' });
    await Promise.all(clients.map(stop));
    await stop(server);
    // The invariant: no number held or sold twice (target: 0 rows).
    const duplicates = await db('tickets')
      .select('competitionId', 'number')
      .count({ n: '*' })
      .groupBy('competitionId', 'number')
      .having(db.raw('count(*) > 1'));
    return {
      holdsPerSecond: Math.round(holds / (durationMs / 1000)),
      p50: percentile(histogram, 0.5),
      p99: percentile(histogram, 0.99),
      conflicts: statuses[409] ?? 0,
      serverErrors: Object.entries(statuses)
        .filter(([s]) => Number(s) >= 500)
        .reduce((sum, [, n]) => sum + n, 0),
      deadlockRetries: stats.deadlockRetries,
      collisionRetries: stats.collisionRetries,
      duplicates: duplicates.length,
    };
  } finally {
    await db.destroy();
    await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
    await admin.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function contention() {
  const lines = [
    '### Contention on MariaDB: 200 concurrent buyers, each with its own session, for 10 s (each buyer releases a hold before taking the next)',
    '',
    `Median of ${RUNS} runs; buyers in ${CLIENT_PROCESSES} processes on the same 2-core machine as the server and MariaDB. Baseline: 1 buyer taking Lucky Dips one after another.`,
    '',
    '| scenario | holds/s | vs baseline | p50 ms | p99 ms | conflicts (409) | deadlocks retried | Lucky Dip collisions retried | 5xx | duplicate rows |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const scenarios: Array<[string, 'hot' | 'lucky' | 'ping', number]> = [
    ['baseline: 1 buyer, Lucky Dips, 100,000 numbers', 'lucky', 1],
    ['reference: 200 clients calling GET /api/health (requests/s, not holds)', 'ping', 200],
    ['chosen numbers: 10 hot numbers of 1,000', 'hot', 200],
    ['Lucky Dips of 1-3 on 100,000 numbers', 'lucky', 200],
  ];
  let baseline = 1;
  for (const [label, mode, buyers] of scenarios) {
    const runs: ContentionResult[] = [];
    for (let r = 0; r < RUNS; r++) {
      runs.push(await contentionRun(mode, buyers, 10_000));
      process.stderr.write(`contention ${label}, run ${r + 1}: ${runs.at(-1)!.holdsPerSecond} holds/s\n`);
    }
    const m = (f: (x: ContentionResult) => number) => median(runs.map(f));
    if (buyers === 1)
      baseline = Math.max(
        1,
        m((x) => x.holdsPerSecond),
      );
    lines.push(
      `| ${label} | ${m((x) => x.holdsPerSecond)} | ${(m((x) => x.holdsPerSecond) / baseline).toFixed(1)}x | ${m((x) => x.p50)} | ${m((x) => x.p99)} | ${m((x) => x.conflicts)} | ${m((x) => x.deadlockRetries)} | ${m((x) => x.collisionRetries)} | ${m((x) => x.serverErrors)} | ${m((x) => x.duplicates)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// --- snapshot size ---------------------------------------------------------------------------

async function snapshot() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateLatest(db);
    const id = await insertCompetition(db, 'Snapshot', 100_000);
    const now = Date.now();
    const [orderId] = await db('orders').insert({
      totalPence: 0,
      status: 'completed',
      createdAt: now,
      updatedAt: now,
    });
    // Scattered like real sales: 2,350 sold and 500 held numbers at random (seeded) places.
    const picked = pickDistinct(seededRandom('snapshot-bench'), 100_000, 2850);
    const sold = picked.slice(0, 2350);
    const held = picked.slice(2350);
    const [cartItemId] = await db('cartItems').insert({
      guestId: 'bench',
      competitionId: id,
      quantity: 10,
      selectedNumbers: '[]',
      reservedAt: now,
      expiresAt: now + 600_000,
      createdAt: now,
      updatedAt: now,
    });
    await db.batchInsert(
      'tickets',
      held.map((number) => ({
        competitionId: id,
        number,
        status: 'reserved',
        cartItemId,
        guestId: 'bench',
        expiresAt: now + 600_000,
        createdAt: now,
        updatedAt: now,
      })),
      500,
    );
    await db.batchInsert(
      'tickets',
      sold.map((number) => ({
        competitionId: id,
        number,
        status: 'sold',
        orderId,
        isClaimed: true,
        createdAt: now,
        updatedAt: now,
      })),
      500,
    );
    const snap = await competitionSnapshot(db, id, null);
    const json = Buffer.byteLength(JSON.stringify(snap));
    // What permessage-deflate sends for it, with the server's settings (raw deflate).
    const wire = zlib.deflateRawSync(JSON.stringify(snap), {
      level: SNAPSHOT_COMPRESSION.zlibDeflateOptions.level,
      memLevel: SNAPSHOT_COMPRESSION.zlibDeflateOptions.memLevel,
      windowBits: SNAPSHOT_COMPRESSION.serverMaxWindowBits,
    }).length;
    const available = Buffer.byteLength(JSON.stringify(await listAvailableNumbers(db, id)));
    const allNumbers = Buffer.byteLength(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i + 1)));
    const oneBitmap = encodeBitmap(100_000, sold).length;
    return [
      '### Snapshot size for 100,000 numbers (2,350 sold and 500 held, scattered at random)',
      '',
      '| payload | bytes | vs snapshot |',
      '|---|---:|---:|',
      `| competition:watch snapshot on the wire (permessage-deflate) | ${wire.toLocaleString('en-GB')} | 1.0x |`,
      `| the same snapshot as JSON before compression (two base64 bitmaps) | ${json.toLocaleString('en-GB')} | ${(json / wire).toFixed(1)}x |`,
      `| one bitmap (base64) | ${oneBitmap.toLocaleString('en-GB')} | ${(oneBitmap / wire).toFixed(1)}x |`,
      `| baseline: JSON array of the available numbers (GET /available-tickets) | ${available.toLocaleString('en-GB')} | ${(available / wire).toFixed(1)}x |`,
      `| baseline: JSON array of all 100,000 numbers | ${allNumbers.toLocaleString('en-GB')} | ${(allNumbers / wire).toFixed(1)}x |`,
      '',
    ].join('\n');
  } finally {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const sections: string[] = [];
if (!only || only === 'snapshot') sections.push(await snapshot());
if (!only || only === 'contention') sections.push(await contention());
if (!only || only === 'fanout') sections.push(await fanout());
console.info(
  `\n## Results (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores)\n\n${sections.join('\n')}`,
);
