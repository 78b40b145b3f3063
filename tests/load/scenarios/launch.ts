// A hot launch through the fair queue (docs/performance.md#launch-under-the-rush): 2,000 visitors,
// each its own signed-in session and Socket.IO connection on the competition page, join the queue
// before the opening; at the opening each, once let in, holds a Lucky Dip and pays. Named figures:
// launch-hold-p99 (baseline: GET /api/health p99 during the same rush), launch-queue-staleness-p99,
// launch-queue-update-gap-p99, launch-fairness-rho, launch-server-errors, launch-violations and
// launch-unfinished-visitors.
import { queueColumnsOnCreate } from '../../../api/catalogue/launch/queueSetting';
import {
  type LaunchFigures,
  launchFigures,
  percentile,
  type QueueTrace,
} from '../../../scripts/swarm/launchFigures';
import { type VisitorReport, visitorTotals } from '../../../scripts/swarm/launchVisitor';
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  type CpuSplit,
  child,
  cpuMeter,
  formatCount,
  insertCompetition,
  medianOf,
  next,
  profileArgs,
  progress,
  type SectionResult,
  shares,
  stop,
  withBenchDatabase,
} from '../harness';
import { launchViolations, queueEntries } from '../launchInvariants';

/** Visitors let in per second (LAUNCH_ADMIT_PER_SECOND; BENCH_LAUNCH_ADMIT_PER_SECOND to change). */
export const LAUNCH_ADMIT_PER_SECOND = Number(process.env.BENCH_LAUNCH_ADMIT_PER_SECOND ?? 25);
/** Every bench client comes from 127.0.0.1: the per-address cap (default 20) would stop the 21st. */
const PER_ADDRESS = 100_000;
/** The opening comes this long after the last visitor joined. */
const OPENING_LEAD_MS = 3000;

interface LaunchRun {
  figures: LaunchFigures;
  healthP99: number | null;
  joinMs: number;
  admissionSeconds: number;
  cpu: CpuSplit;
}

async function launchRun(clients: number, admitPerSecond: number): Promise<LaunchRun> {
  return withBenchDatabase(async ({ db, databaseUrl, dataDir }) => {
    const competitionId = await insertCompetition(db, 'launch', 100_000);
    const farOff = Date.now() + 5 * 60_000;
    await db('competitions')
      .where({ id: competitionId })
      .update({ startsAt: farOff, ...queueColumnsOnCreate({ launchQueue: true, startsAt: farOff }) });
    const server = child(
      'server.ts',
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        // Registering 2,000 accounts should not be 2,000 production-cost password hashes.
        PASSWORD_HASH_COST: 'test',
        LAUNCH_QUEUE_PER_ADDRESS: String(PER_ADDRESS),
        LAUNCH_ADMIT_PER_SECOND: String(admitPerSecond),
        // The queue's tick runs only while the sweeper does (server/startServer.ts).
        BENCH_SWEEP_INTERVAL_MS: '5000',
      },
      profileArgs(),
    );
    const { url } = await next<{ url: string }>(server, 'ready');
    const tag = Date.now().toString(36);
    const procs = shares(clients, Math.min(CLIENT_PROCESSES, clients)).map((n, k) =>
      child('launchClient.ts', {
        BENCH_URL: url,
        BENCH_CLIENTS: String(n),
        BENCH_COMPETITION: String(competitionId),
        BENCH_PREFIX: `l${tag}p${k}c`,
        BENCH_PROBE_AHEAD: String(admitPerSecond * 5),
      }),
    );
    await Promise.all(procs.map((c) => next(c, 'ready')));
    const joinStarted = Date.now();
    const joinedP = procs.map((c) => next<{ joined: number }>(c, 'joined'));
    for (const c of procs) c.send({ type: 'prepare' });
    const joined = (await Promise.all(joinedP)).reduce((sum, j) => sum + j.joined, 0);
    const joinMs = Date.now() - joinStarted;
    progress(`  ${joined} of ${clients} joined in ${(joinMs / 1000).toFixed(1)} s`);

    const startsAt = Date.now() + OPENING_LEAD_MS;
    await db('competitions').where({ id: competitionId }).update({ startsAt });
    const stopCpu = cpuMeter(server, procs);
    // Time for the payments queued behind the last admission, on a machine shared with the load.
    const deadline = startsAt + Math.ceil((clients / admitPerSecond) * 1000) + 120_000;
    const reportsP = procs.map((c) => next<{ reports: VisitorReport[]; health: number[] }>(c, 'report'));
    for (const c of procs) c.send({ type: 'collect', deadline, startsAt });
    const answers = await Promise.all(reportsP);
    const endAt = Date.now();
    const cpu = stopCpu();
    for (const c of procs) c.send({ type: 'close' });
    await Promise.all(procs.map(stop));
    await stop(server);

    const reports = answers.flatMap((a) => a.reports);
    const entries = await queueEntries(db, competitionId);
    const byId = new Map(entries.map((e) => [e.id, e]));
    const traces: QueueTrace[] = reports
      .filter((r) => r.entryId !== null && byId.get(r.entryId!)?.position != null)
      .map((r) => {
        const e = byId.get(r.entryId!)!;
        return {
          position: e.position!,
          joinedAt: r.joinedAt!,
          joinedBeforeOpening: e.joinedAt < startsAt,
          updates: r.updates,
          admittedSeenAt: r.admittedSeenAt,
        };
      });
    const violations = await launchViolations(db, competitionId, entries, reports);
    const errors = reports.flatMap((r) => r.errors);
    for (const e of errors.slice(0, 5)) progress(`  error: ${e}`);
    const admittedTimes = entries.map((e) => e.admittedAt).filter((a): a is number => a !== null);
    return {
      figures: launchFigures({
        clients,
        traces,
        places: entries
          .filter((e) => e.position !== null)
          .map((e) => ({ position: e.position!, admittedAt: e.admittedAt })),
        ...visitorTotals(reports),
        violations,
        endAt,
      }),
      healthP99: percentile(
        answers.flatMap((a) => a.health),
        0.99,
      ),
      joinMs,
      admissionSeconds: admittedTimes.length
        ? (Math.max(...admittedTimes) - Math.min(...admittedTimes)) / 1000
        : 0,
      cpu,
    };
  });
}

export async function launch({ runs, quick }: BenchOptions): Promise<SectionResult> {
  const clients = Number(process.env.BENCH_LAUNCH_CLIENTS ?? (quick ? 500 : 2000));
  const rate = LAUNCH_ADMIT_PER_SECOND;
  const { results, m } = await medianOf(runs, async (r) => {
    const result = await launchRun(clients, rate);
    const f = result.figures;
    progress(
      `launch ${clients} visitors, run ${r + 1}: hold p99 ${f.holdP99} ms, staleness p99 ${f.stalenessP99} ms, rho ${f.fairnessRho.toFixed(3)}, 5xx ${f.serverErrors}, violations ${f.violations.length}, unfinished ${f.unfinished}`,
    );
    for (const v of f.violations.slice(0, 5)) progress(`  VIOLATION: ${v}`);
    return result;
  });
  const n = (v: number | null) => (v === null ? '-' : formatCount(v));
  const f = (get: (x: LaunchFigures) => number | null) => m((x) => get(x.figures) ?? Number.NaN);
  const rho = f((x) => x.fairnessRho);
  // The zero targets take the worst run, not the median.
  const worst = (get: (x: LaunchFigures) => number) => Math.max(...results.map((x) => get(x.figures)));
  const lines = [
    `### Launch under the rush: ${formatCount(clients)} visitors through the queue, let in at ${rate}/s`,
    '',
    `Median of ${runs} run(s); visitors in ${CLIENT_PROCESSES} processes on the same machine as the server and MariaDB, each signed in with its own Socket.IO connection (not watching the grid: see docs/performance.md#launch-under-the-rush). Baseline in the same rush: GET /api/health, one caller per client process, every 100 ms. 5xx, violations and unfinished visitors (not paid by the end): the worst run.`,
    '',
    '| joined (s to join) | admitted (s to admit) | paid | hold p50 / p99 ms | health p99 ms (same rush) | hold p99 / health p99 | pay p99 ms | staleness p50 / p99 ms | update gap p99 ms | fairness ρ | 5xx | violations | unfinished | CPU s: server / MariaDB / clients | machine busy |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${n(f((x) => x.joined))} (${(m((x) => x.joinMs) / 1000).toFixed(0)}) | ${n(f((x) => x.admitted))} (${m((x) => x.admissionSeconds).toFixed(1)}) | ${n(f((x) => x.paid))} | ${n(f((x) => x.holdP50))} / ${n(f((x) => x.holdP99))} | ${n(m((x) => x.healthP99 ?? Number.NaN))} | ${(
      f((x) => x.holdP99) /
        Math.max(
          1,
          m((x) => x.healthP99 ?? 1),
        )
    ).toFixed(
      2,
    )} | ${n(f((x) => x.payP99))} | ${n(f((x) => x.stalenessP50))} / ${n(f((x) => x.stalenessP99))} | ${n(f((x) => x.updateGapP99))} | ${rho.toFixed(3)} | ${worst((x) => x.serverErrors)} | ${worst((x) => x.violations.length)} | ${worst((x) => x.unfinished)} | ${(m((x) => x.cpu.server) / 1000).toFixed(1)} / ${(m((x) => x.cpu.database) / 1000).toFixed(1)} / ${(m((x) => x.cpu.clients) / 1000).toFixed(1)} | ${m((x) => (x.cpu.machineTotal ? (100 * x.cpu.machineBusy) / x.cpu.machineTotal : 0)).toFixed(0)}% |`,
    '',
    `Per run: ${results.map((x) => `hold p99 ${x.figures.holdP99} ms, staleness p99 ${x.figures.stalenessP99} ms, ρ ${x.figures.fairnessRho.toFixed(3)}`).join('; ')}.`,
  ];
  return {
    markdown: `${lines.join('\n')}\n`,
    scenarios: [
      {
        name: 'launch-hold-p99',
        value: f((x) => x.holdP99),
        unit: 'ms',
        baseline: { name: 'launch-health-p99', value: m((x) => x.healthP99 ?? Number.NaN), unit: 'ms' },
      },
      { name: 'launch-queue-staleness-p99', value: f((x) => x.stalenessP99), unit: 'ms', baseline: null },
      { name: 'launch-queue-update-gap-p99', value: f((x) => x.updateGapP99), unit: 'ms', baseline: null },
      { name: 'launch-fairness-rho', value: Math.round(rho * 1000) / 1000, unit: 'rho', baseline: null },
      {
        name: 'launch-server-errors',
        value: worst((x) => x.serverErrors),
        unit: 'responses',
        baseline: null,
      },
      {
        name: 'launch-unfinished-visitors',
        value: worst((x) => x.unfinished),
        unit: 'visitors',
        baseline: null,
      },
      {
        name: 'launch-violations',
        value: worst((x) => x.violations.length),
        unit: 'violations',
        baseline: null,
      },
    ],
  };
}
