// Memory per watching socket, for finding what each one keeps (docs/performance.md#memory-per-socket):
//   npx tsx tests/load/memoryProbe.ts                 N=2000 sockets on this server (server.ts)
//   SERVER=naiveServer.ts npx tsx tests/load/memoryProbe.ts   plain Socket.IO (rawWsServer.ts: bare ws)
//   SNAP=DIR ... also writes DIR/<server>-idle.heapsnapshot and DIR/<server>-loaded.heapsnapshot,
//                for heapDiff.ts (what each socket keeps, by kind of object) or DevTools' Comparison.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateLatest, openDatabase } from '../../db/connection';
import { child, insertCompetition, next, shares, stop } from './harness';

const n = Number(process.env.N ?? 2000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-mem-'));
const db = openDatabase({ dataDir, databaseUrl: undefined });
await migrateLatest(db);
const competitionId = await insertCompetition(db, 'Mem', 1000);
await db.destroy();
const server = child(
  process.env.SERVER ?? 'server.ts',
  { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' },
  ['--expose-gc'],
);
const { url } = await next<{ url: string }>(server, 'ready');
const mem = async () => {
  server.send({ type: 'memory' });
  return next<NodeJS.MemoryUsage>(server, 'memory');
};
const snap = async (moment: string) => {
  if (!process.env.SNAP) return;
  const name = path.basename(process.env.SERVER ?? 'server.ts', '.ts');
  server.send({ type: 'heap-snapshot', file: path.join(process.env.SNAP, `${name}-${moment}.heapsnapshot`) });
  await next(server, 'heap-snapshot');
};
const idle = await mem();
await snap('idle');
const clients = shares(n, 2).map((k) =>
  child('fanoutClient.ts', {
    BENCH_URL: url,
    BENCH_COMPETITION: String(competitionId),
    BENCH_SOCKETS: String(k),
  }),
);
await Promise.all(clients.map((c) => next(c, 'connected')));
const loaded = await mem();
const perSocket = (key: keyof NodeJS.MemoryUsage) => Math.round((loaded[key] - idle[key]) / n);
// heapTotal is what V8 has reserved for the heap, external what Buffers and native objects hold
// outside it: with heap, what RSS is made of.
console.info(
  'heap/socket',
  perSocket('heapUsed'),
  'rss/socket',
  perSocket('rss'),
  'heapTotal/socket',
  perSocket('heapTotal'),
  'external/socket',
  perSocket('external'),
);
await snap('loaded');
for (const c of clients) c.send({ type: 'close' });
await Promise.all(clients.map(stop));
await stop(server);
