// Cross-process fan-out: two app processes on one MariaDB with the Socket.IO Redis adapter
// between them. Process A publishes ticket events; the watchers sit on process B (cross-process)
// or on A itself (the same-process baseline, Redis adapter still on), in the same run.
// Named figure: cross-process-p99 (baseline same-process-p99).
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  child,
  collectFanout,
  formatCount,
  insertCompetition,
  median,
  next,
  percentile,
  progress,
  type SectionResult,
  shares,
  stop,
  withBenchDatabase,
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
  return withBenchDatabase(async ({ db, databaseUrl, dataDir }) => {
    const competitionId = await insertCompetition(db, 'Cross-process', 1000);
    const env = {
      DATABASE_URL: databaseUrl,
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
    const { histogram, gaps, missing } = await collectFanout(clients, published);
    await Promise.all([stop(publisher), stop(other)]);
    return { p50: percentile(histogram, 0.5), p99: percentile(histogram, 0.99), gaps, missing };
  });
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
