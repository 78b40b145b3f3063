// Cross-process fan-out: two app processes on one MariaDB with the Socket.IO Redis adapter
// between them. Process A publishes ticket events; the watchers sit on process B (cross-process)
// or on A itself (the same-process baseline, Redis adapter still on), in the same run.
// Named figure: cross-process-p99 (baseline same-process-p99).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { migrateLatest, openDatabase } from '../../../db/connection';
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  child,
  formatCount,
  insertCompetition,
  MYSQL_URL,
  median,
  merge,
  next,
  percentile,
  progress,
  type SectionResult,
  shares,
  stop,
} from '../harness';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface CrossResult {
  p50: number;
  p99: number;
  gaps: number;
  missing: number;
}

async function crossRun(
  watchersOn: 'same' | 'other',
  sockets: number,
  perSecond: number,
  seconds: number,
): Promise<CrossResult> {
  const name = `wcp_bench_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: MYSQL_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  const dbUrl = new URL(MYSQL_URL);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl: dbUrl.toString() });
  try {
    await migrateLatest(db);
    const competitionId = await insertCompetition(db, 'Cross-process', 1000);
    const env = {
      DATABASE_URL: dbUrl.toString(),
      REDIS_URL,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
    };
    const publisher = child('server.ts', env);
    const other = child('server.ts', env);
    const [{ url: publisherUrl }, { url: otherUrl }] = await Promise.all([
      next<{ url: string }>(publisher, 'ready'),
      next<{ url: string }>(other, 'ready'),
    ]);
    const clients = shares(sockets, Math.min(CLIENT_PROCESSES, sockets)).map((n) =>
      child('fanoutClient.ts', {
        BENCH_URL: watchersOn === 'same' ? publisherUrl : otherUrl,
        BENCH_COMPETITION: String(competitionId),
        BENCH_SOCKETS: String(n),
      }),
    );
    await Promise.all(clients.map((c) => next(c, 'connected')));
    publisher.send({ type: 'emit', competitionId, count: perSecond * seconds, perSecond });
    const { published } = await next<{ published: Record<number, number> }>(publisher, 'emitted');
    await new Promise((r) => setTimeout(r, 1500));
    const reports = clients.map((c) =>
      next<{ histogram: Record<number, number>; gaps: number; missing: number }>(c, 'report'),
    );
    for (const c of clients) c.send({ type: 'report', published });
    const histogram: Record<number, number> = {};
    let gaps = 0;
    let missing = 0;
    for (const r of await Promise.all(reports)) {
      merge(histogram, r.histogram);
      gaps += r.gaps;
      missing += r.missing;
    }
    for (const c of clients) c.send({ type: 'close' });
    await Promise.all(clients.map(stop));
    await Promise.all([stop(publisher), stop(other)]);
    return { p50: percentile(histogram, 0.5), p99: percentile(histogram, 0.99), gaps, missing };
  } finally {
    await db.destroy();
    await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
    await admin.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function crossProcess({ runs, quick }: BenchOptions): Promise<SectionResult> {
  const sockets = Number(process.env.BENCH_CROSS_SOCKETS ?? 1000);
  const perSecond = 10;
  const seconds = quick ? 5 : 10;
  const lines = [
    `### Two processes and Redis: ${formatCount(sockets)} sockets, ${perSecond} ticket events per second for ${seconds} s`,
    '',
    `Median of ${runs} run(s). Two app processes (\`tests/load/server.ts\`) on one MariaDB with the Socket.IO Redis adapter; process A publishes. Baseline in the same run: the watchers on A itself (Redis adapter still on), against the watchers on B, whose events cross Redis.`,
    '',
    '| watchers on | p50 ms | p99 ms | p99 / same-process p99 | gaps | not arrived 1.5 s after the last event |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  // Interleaved, so a busy moment on the shared machine falls on both sides alike.
  const samples: Record<'same' | 'other', CrossResult[]> = { same: [], other: [] };
  for (let r = 0; r < runs; r++) {
    for (const where of ['same', 'other'] as const) {
      const result = await crossRun(where, sockets, perSecond, seconds);
      progress(
        `cross-process, watchers on ${where === 'same' ? 'A' : 'B'}, run ${r + 1}: p99 ${result.p99} ms`,
      );
      samples[where].push(result);
    }
  }
  const summary = (list: CrossResult[]): CrossResult => ({
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    gaps: median(list.map((x) => x.gaps)),
    missing: median(list.map((x) => x.missing)),
  });
  const results = { same: summary(samples.same), other: summary(samples.other) };
  const base = Math.max(1, results.same.p99);
  for (const where of ['same', 'other'] as const) {
    const r = results[where];
    const label = where === 'same' ? 'baseline: A, the publishing process' : 'B, the other process';
    lines.push(
      `| ${label} | ${r.p50} | ${r.p99} | ${(r.p99 / base).toFixed(2)} | ${r.gaps} | ${r.missing} |`,
    );
  }
  lines.push('');
  return {
    markdown: lines.join('\n'),
    scenarios: [
      {
        name: 'cross-process-p99',
        value: results.other.p99,
        unit: 'ms',
        baseline: { name: 'same-process-p99', value: results.same.p99, unit: 'ms' },
      },
    ],
  };
}
