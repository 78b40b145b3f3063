// Contention on MariaDB: 200 buyers, each with its own session, holding (and releasing) through
// the real HTTP API, against the ceiling of the simplest request (GET /api/health) with the same
// clients in the same run. Named figures: holds-lucky-dip and holds-floor (baseline health req/s) and
// holds-hot-p99 (baseline health p99).
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  type CpuSplit,
  child,
  cpuMeter,
  insertCompetition,
  medianOf,
  merge,
  next,
  percentile,
  profileArgs,
  progress,
  type SectionResult,
  shares,
  stop,
  withBenchDatabase,
} from '../harness';

type Mode = 'hot' | 'lucky' | 'ping' | 'floor';

interface ContentionResult {
  holdsPerSecond: number;
  p50: number;
  p99: number;
  conflicts: number;
  /** p50 and p99 ms of the holds won (201) and of the refusals (409). */
  won: { p50: number; p99: number };
  refused: { p50: number; p99: number };
  serverErrors: number;
  deadlockRetries: number;
  collisionRetries: number;
  duplicates: number;
  /** CPU used during the run, and the requests it served (holds, releases, refusals, health). */
  cpu: CpuSplit;
  requests: number;
}

/** One run on a throw-away database: the server, `buyers` clients for `durationMs`, the invariant. */
export async function contentionRun(
  mode: Mode,
  buyers: number,
  durationMs: number,
): Promise<ContentionResult> {
  return withBenchDatabase(async ({ db, databaseUrl, dataDir }) => {
    const competitionId = await insertCompetition(db, mode, mode === 'hot' ? 1000 : 100_000);
    const server = child(
      'server.ts',
      { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' },
      profileArgs(),
    );
    const { url } = await next<{ url: string }>(server, 'ready');
    const clients = shares(buyers, Math.min(CLIENT_PROCESSES, buyers)).map((n) =>
      child('buyerClient.ts', {
        BENCH_URL: url,
        BENCH_MODE: mode,
        BENCH_COMPETITION: String(competitionId),
        BENCH_BUYERS: String(n),
      }),
    );
    await Promise.all(clients.map((c) => next(c, 'ready')));
    const reports = clients.map((c) =>
      next<{
        statuses: Record<number, number>;
        histogram: Record<number, number>;
        byStatus: Record<number, Record<number, number>>;
        holds: number;
      }>(c, 'report'),
    );
    const stopCpu = cpuMeter(server, clients);
    for (const c of clients) c.send({ type: 'go', durationMs });
    const histogram: Record<number, number> = {};
    const statuses: Record<number, number> = {};
    const won: Record<number, number> = {};
    const refused: Record<number, number> = {};
    let holds = 0;
    for (const r of await Promise.all(reports)) {
      merge(histogram, r.histogram);
      merge(statuses, r.statuses);
      merge(won, r.byStatus[201] ?? {});
      merge(refused, r.byStatus[409] ?? {});
      holds += r.holds;
    }
    const cpu = stopCpu();
    progress(`  statuses ${JSON.stringify(statuses)}`);
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
      won: { p50: percentile(won, 0.5), p99: percentile(won, 0.99) },
      refused: { p50: percentile(refused, 0.5), p99: percentile(refused, 0.99) },
      serverErrors: Object.entries(statuses)
        .filter(([s]) => Number(s) >= 500)
        .reduce((sum, [, n]) => sum + n, 0),
      deadlockRetries: stats.deadlockRetries,
      collisionRetries: stats.collisionRetries,
      duplicates: duplicates.length,
      cpu,
      // Every answered POST, plus a DELETE for each hold (the buyer releases it before the next).
      requests: Object.values(statuses).reduce((a, b) => a + b, 0) + (mode === 'ping' ? 0 : holds),
    };
  });
}

export async function contention({ runs, quick }: BenchOptions): Promise<SectionResult> {
  const durationMs = quick ? 5_000 : 10_000;
  const lines = [
    `### Contention on MariaDB: 200 concurrent buyers, each with its own session, for ${durationMs / 1000} s (each buyer releases a hold before taking the next)`,
    '',
    `Median of ${runs} run(s); buyers in ${CLIENT_PROCESSES} processes on the same machine as the server and MariaDB. Baselines in the same run: 1 buyer taking Lucky Dips one after another (the ratio column), and 200 clients calling GET /api/health (the ceiling).`,
    '',
    '| scenario | holds/s | vs 1 buyer | vs health ceiling | p50 ms | p99 ms | p99 / health p99 | conflicts (409) | deadlocks retried | Lucky Dip collisions retried | 5xx | duplicate rows |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const scenarios: Array<[string, Mode, number]> = [
    ['baseline: 1 buyer, Lucky Dips, 100,000 numbers', 'lucky', 1],
    ['reference: 200 clients calling GET /api/health (requests/s, not holds)', 'ping', 200],
    // The most any hold could reach here: a hold and its release that stop at validation.
    ['floor: a hold and its release refused at validation (no ticket work)', 'floor', 200],
    ['chosen numbers: 10 hot numbers of 1,000', 'hot', 200],
    ['Lucky Dips of 1-3 on 100,000 numbers', 'lucky', 200],
  ];
  // Where the CPU went: per request served, by process (the app server, MariaDB, the 4 client
  // processes), and how busy the whole machine was. Medians of the runs.
  const cpuLines = [
    '',
    'CPU per request served (a hold, its release, a refusal or a health check), by process, and how busy the machine was:',
    '',
    '| scenario | requests/s | server ms/request | MariaDB ms/request | clients ms/request | machine busy |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const perRequest = (x: ContentionResult, ms: number) => (x.requests ? ms / x.requests : 0);
  const figures = new Map<
    Mode | 'single',
    { rate: number; p99: number; errors: number; duplicates: number }
  >();
  let hotSplit!: Awaited<ReturnType<typeof medianOf<ContentionResult>>>;
  for (const [label, mode, buyers] of scenarios) {
    const runsOf = await medianOf(runs, async (r) => {
      const result = await contentionRun(mode, buyers, durationMs);
      progress(`contention ${label}, run ${r + 1}: ${result.holdsPerSecond}/s, p99 ${result.p99} ms`);
      return result;
    });
    const { m } = runsOf;
    if (mode === 'hot') hotSplit = runsOf;
    const rate = m((x) => x.holdsPerSecond);
    cpuLines.push(
      `| ${label} | ${m((x) => Math.round(x.requests / (durationMs / 1000)))} | ${m((x) => perRequest(x, x.cpu.server)).toFixed(2)} | ${m((x) => perRequest(x, x.cpu.database)).toFixed(2)} | ${m((x) => perRequest(x, x.cpu.clients)).toFixed(2)} | ${m((x) => (x.cpu.machineTotal ? (100 * x.cpu.machineBusy) / x.cpu.machineTotal : 0)).toFixed(0)}% |`,
    );
    const p99 = m((x) => x.p99);
    figures.set(buyers === 1 ? 'single' : mode, {
      rate,
      p99,
      errors: m((x) => x.serverErrors),
      duplicates: m((x) => x.duplicates),
    });
    const single = figures.get('single')!.rate || 1;
    const health = figures.get('ping');
    lines.push(
      `| ${label} | ${rate} | ${(rate / single).toFixed(1)}x | ${health ? (rate / health.rate).toFixed(2) : '-'} | ${m((x) => x.p50)} | ${p99} | ${health ? (p99 / Math.max(1, health.p99)).toFixed(2) : '-'} | ${m((x) => x.conflicts)} | ${m((x) => x.deadlockRetries)} | ${m((x) => x.collisionRetries)} | ${m((x) => x.serverErrors)} | ${m((x) => x.duplicates)} |`,
    );
  }
  const health = figures.get('ping')!;
  // Whose latency the hot p99 is: more than 1% of the answers are holds won, each a whole
  // transaction, so the p99 falls among them and the refusals that waited for one.
  lines.push(
    '',
    `Hot numbers by answer: refusals (409) p50 ${hotSplit.m((x) => x.refused.p50)} ms, p99 ${hotSplit.m((x) => x.refused.p99)} ms (${(hotSplit.m((x) => x.refused.p99) / Math.max(1, health.p99)).toFixed(2)}x the health p99); holds won (201) p50 ${hotSplit.m((x) => x.won.p50)} ms, p99 ${hotSplit.m((x) => x.won.p99)} ms, ${hotSplit.m((x) => (100 * x.holdsPerSecond) / Math.max(1, x.requests / (durationMs / 1000) - x.holdsPerSecond)).toFixed(1)}% of the answers.`,
  );
  const lucky = figures.get('lucky')!;
  const hot = figures.get('hot')!;
  const floor = figures.get('floor')!;
  return {
    markdown: `${[...lines, ...cpuLines].join('\n')}\n`,
    scenarios: [
      {
        name: 'holds-lucky-dip',
        value: lucky.rate,
        unit: 'holds/s',
        baseline: { name: 'health-requests-per-second', value: health.rate, unit: 'req/s' },
      },
      {
        // What holds-lucky-dip could reach at most: the same cycle with no ticket work.
        name: 'holds-floor',
        value: floor.rate,
        unit: 'holds/s',
        baseline: { name: 'health-requests-per-second', value: health.rate, unit: 'req/s' },
      },
      {
        name: 'holds-hot-p99',
        value: hot.p99,
        unit: 'ms',
        baseline: { name: 'health-p99', value: health.p99, unit: 'ms' },
      },
      { name: 'holds-server-errors', value: lucky.errors + hot.errors, unit: 'responses', baseline: null },
      {
        name: 'holds-duplicate-rows',
        value: lucky.duplicates + hot.duplicates,
        unit: 'rows',
        baseline: null,
      },
    ],
  };
}
