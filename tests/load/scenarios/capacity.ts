// Capacity: the CPU costs the capacity model (tests/load/capacityModel.ts, docs/operations.md#capacity)
// is built from, measured on throw-away MariaDB databases and a Redis of the bench's own, and the
// model's check: its prediction for WEB_CONCURRENCY=2 on this machine against a run of it.
// Named figures: capacity-cpu-ms-per-hold, capacity-main-thread-ms-per-hold,
// capacity-db-cpu-ms-per-hold, capacity-cpu-us-per-event-socket, capacity-cpu-us-per-queue-update,
// capacity-db-cpu-us-per-queue-update, capacity-redis-cpu-us-per-broadcast,
// capacity-redis-foreign-us-per-message, capacity-two-process-holds (baseline: the prediction),
// capacity-two-process-prediction-error (WEB_CONCURRENCY=2) and
// capacity-two-separate-processes-prediction-error (two processes, the buyers split between them).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import {
  appMsPerHold,
  type Costs,
  holdsThroughput,
  type Launch,
  planLaunch,
  relativeError,
  type Throughput,
} from '../capacityModel';
import {
  type AppUnderTest,
  measure,
  type PrivateRedis,
  startCluster,
  startPair,
  startPrivateRedis,
  startSingle,
  sumCpu,
  sumMainCpu,
  type Window,
} from '../capacityProbes';
import { capacityMarkdown } from '../capacityReport';
import {
  type BenchOptions,
  CLIENT_PROCESSES,
  child,
  insertCompetition,
  median,
  merge,
  next,
  progress,
  type SectionResult,
  shares,
  stop,
  withBenchDatabase,
} from '../harness';
import type { Scenario } from '../report';
import { fanoutRun } from './fanout';

const BUYERS = 200;
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Setup = 'single' | 'cluster' | 'pair';

export interface HoldRun {
  holds: number;
  holdsPerSecond: number;
  /** Main-thread CPU (ms) of each serving process, and of the WEB_CONCURRENCY primary (0 if none). */
  mains: number[];
  primary: number;
  serverErrors: number;
  /** Cores busy with work not this bench's, sampled over 2 s before the load started. */
  foreignCores: number;
  window: Window<unknown>;
}

/** The machine's busy cores over `ms` outside `ours` (cumulative CPU ms of this bench's processes). */
async function foreignCores(ours: () => number, redis: PrivateRedis, ms: number): Promise<number> {
  // MariaDB's CPU meanwhile counts as foreign: this bench's processes are idle.
  const w = await measure({ ours }, redis, () => settle(ms));
  return Math.max(0, w.machineBusy - w.cpu.ours! - w.redis) / w.ms;
}

/** The contention load (200 buyers, Lucky Dips of 1-3, each released before the next) on `app`. */
async function holdRun(setup: Setup, redis: PrivateRedis, durationMs: number): Promise<HoldRun> {
  return withBenchDatabase(async ({ db, databaseUrl, dataDir }) => {
    const competitionId = await insertCompetition(db, 'Capacity', 100_000);
    const env = { databaseUrl, dataDir, redisUrl: redis.url };
    const app: AppUnderTest =
      setup === 'single'
        ? await startSingle(env)
        : setup === 'pair'
          ? await startPair(env)
          : await startCluster(2, env);
    const clients = shares(BUYERS, CLIENT_PROCESSES).map((n, i) =>
      child('buyerClient.ts', {
        BENCH_URL: app.urls[i % app.urls.length]!,
        BENCH_MODE: 'lucky',
        BENCH_COMPETITION: String(competitionId),
        BENCH_BUYERS: String(n),
      }),
    );
    await Promise.all(clients.map((c) => next(c, 'ready')));
    const clientCpu = () => sumCpu(clients.map((c) => c.pid!));
    const foreign = await foreignCores(() => sumCpu(app.pids()) + clientCpu(), redis, 2000);
    const reports = clients.map((c) =>
      next<{ statuses: Record<number, number>; holds: number }>(c, 'report'),
    );
    const serving = app.servingPids();
    const window = await measure(
      {
        app: () => sumCpu(app.pids()),
        main: () => sumMainCpu(serving),
        ...Object.fromEntries(serving.map((pid, i) => [`main${i}`, () => sumMainCpu([pid])])),
        primary: () => (app.primaryPid ? sumCpu([app.primaryPid]) : 0),
        clients: clientCpu,
      },
      redis,
      async () => {
        for (const c of clients) c.send({ type: 'go', durationMs });
        return Promise.all(reports);
      },
    );
    const statuses: Record<number, number> = {};
    let holds = 0;
    for (const r of window.result) {
      merge(statuses, r.statuses);
      holds += r.holds;
    }
    for (const c of clients) c.send({ type: 'close' });
    await Promise.all(clients.map(stop));
    await app.stop();
    const serverErrors = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
    const mains = serving.map((_, i) => window.cpu[`main${i}`]!);
    return {
      holds,
      holdsPerSecond: holds / (durationMs / 1000),
      mains,
      primary: window.cpu.primary!,
      serverErrors,
      foreignCores: foreign,
      window,
    };
  });
}

export interface QueueRun {
  /** Updates measured; updates sent in all (with the first tick's) and those the sockets received. */
  updates: number;
  sent: number;
  delivered: number;
  /** App CPU per update (the ticking process), MariaDB per update, µs. */
  appUs: number;
  dbUs: number;
  /** Redis CPU per PUBLISH with one and with two processes subscribed, µs. */
  redisOneUs: number;
  redisTwoUs: number;
  /** The second process's CPU per message it read and dropped (no socket in the room), µs. */
  foreignUs: number;
}

const tick = async (app: ReturnType<typeof child>, count: number) => {
  app.send({ type: 'queue-ticks', count, intervalMs: 1000 });
  const { updates } = await next<{ updates: number }>(app, 'ticked');
  await settle(300); // the last tick's writes reach the sockets
  return updates;
};

/**
 * A launch queue of `visitors` waiting visitors, each with a socket in its own room, on process A
 * with Redis; A ticks `ticks` times a second apart. Then process B joins Redis with no sockets,
 * and A ticks again: B's CPU is what a message for a room it does not have costs.
 */
async function queueRun(redis: PrivateRedis, visitors: number, ticks: number): Promise<QueueRun> {
  return withBenchDatabase(async ({ db, databaseUrl, dataDir }) => {
    const competitionId = await insertCompetition(db, 'Capacity queue', 100_000);
    await db('competitions')
      .where({ id: competitionId })
      .update({
        launchQueue: true,
        startsAt: Date.now() - 60_000,
        queueSeed: randomBytes(32).toString('hex'),
        queueAdmitPerSecond: 1,
      });
    const env = {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      REDIS_URL: redis.url,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LAUNCH_QUEUE_PER_ADDRESS: '100000',
    };
    const a = child('capacityServer.ts', env);
    const { url } = await next<{ url: string }>(a, 'ready');
    const clients = shares(visitors, CLIENT_PROCESSES).map((n) =>
      child('queueClient.ts', {
        BENCH_URL: url,
        BENCH_COMPETITION: String(competitionId),
        BENCH_VISITORS: String(n),
      }),
    );
    await Promise.all(clients.map((c) => next(c, 'connected')));
    const first = await tick(a, 1); // it places everyone (late joiners, one UPDATE each): not measured
    const one = await measure({ a: () => sumCpu([a.pid!]) }, redis, () => tick(a, ticks));
    const b = child('capacityServer.ts', env);
    await next(b, 'ready');
    const two = await measure({ a: () => sumCpu([a.pid!]), b: () => sumCpu([b.pid!]) }, redis, () =>
      tick(a, ticks),
    );
    const reports = clients.map((c) => next<{ positions: number }>(c, 'report'));
    for (const c of clients) c.send({ type: 'report' });
    const delivered = (await Promise.all(reports)).reduce((sum, r) => sum + r.positions, 0);
    for (const c of clients) c.send({ type: 'close' });
    await Promise.all([...clients.map(stop), stop(a), stop(b)]);
    const updates = one.result + two.result;
    return {
      updates,
      sent: first + updates,
      delivered,
      appUs: ((one.cpu.a! + two.cpu.a!) * 1000) / updates,
      dbUs: ((one.database + two.database) * 1000) / updates,
      redisOneUs: (one.redis * 1000) / Math.max(1, one.publishes),
      redisTwoUs: (two.redis * 1000) / Math.max(1, two.publishes),
      foreignUs: (two.cpu.b! * 1000) / Math.max(1, two.publishes),
    };
  });
}

/** App CPU per frame per watching socket: the slope between 1 and `sockets` watchers, µs. */
async function eventSocketUs(sockets: number): Promise<number> {
  const small = await fanoutRun({ sockets: 1 });
  const large = await fanoutRun({ sockets });
  return ((large.serverCpuMsPerEvent - small.serverCpuMsPerEvent) * 1000) / (sockets - 1);
}

export interface CapacityRun {
  single: HoldRun;
  cluster: HoldRun;
  pair: HoldRun;
  queue: QueueRun;
  eventSocketUs: number;
}

/** The model's costs from one run's single-process holds, the queue and the fan-out. */
function costsOf(run: CapacityRun): Costs {
  const { single, queue } = run;
  const w = single.window;
  const perHold = (ms: number) => ms / single.holds;
  const attributed = w.cpu.app! + w.cpu.clients! + w.database + w.redis;
  const deliver = Math.max(0, queue.redisTwoUs - queue.redisOneUs);
  return {
    holdAppMs: perHold(w.cpu.app!),
    holdMainMs: perHold(w.cpu.main!),
    holdDbMs: perHold(w.database),
    holdClientMs: perHold(w.cpu.clients!),
    holdUnattributedMs: perHold(Math.max(0, w.machineBusy - attributed - single.foreignCores * w.ms)),
    publishesPerHold: w.publishes / single.holds,
    eventSocketUs: run.eventSocketUs,
    queueUpdateUs: queue.appUs,
    queueDbUs: queue.dbUs,
    redisForeignUs: queue.foreignUs,
    redisPublishUs: Math.max(0, queue.redisOneUs - deliver),
    redisDeliverUs: deliver,
  };
}

/** The median of each cost over the runs. */
function medianCosts(all: Costs[]): Costs {
  const keys = Object.keys(all[0]!) as Array<keyof Costs>;
  return Object.fromEntries(keys.map((k) => [k, median(all.map((c) => c[k]))])) as unknown as Costs;
}

/**
 * What the model says two processes serve on this machine (its cores shared with MariaDB, Redis
 * and the load clients), given the foreign load. WEB_CONCURRENCY=2: the buyers open no socket, so
 * the primary hands every connection to the first worker (Machine.servingProcesses); two separate
 * processes: the buyers are split between them.
 */
export const twoProcessPrediction = (
  costs: Costs,
  setup: 'cluster' | 'pair',
  cores: number,
  foreign: number,
): Throughput =>
  holdsThroughput(costs, {
    cores,
    processes: 2,
    servingProcesses: setup === 'cluster' ? 1 : 2,
    sharedWithDatabase: true,
    sharedWithRedis: true,
    sharedWithClients: true,
    foreignCores: foreign,
  });

export const LAUNCH: Launch = { watchers: 100_000, holdsPerSecond: 1000, changesPerHold: 2, queued: 100_000 };

async function capacityRun(redis: PrivateRedis, options: BenchOptions, r: number): Promise<CapacityRun> {
  // Longer windows (BENCH_CAPACITY_SECONDS) smooth the steps of 200 buyers on a busy machine.
  const durationMs = Number(process.env.BENCH_CAPACITY_SECONDS ?? (options.quick ? 5 : 10)) * 1000;
  const holds: Partial<Record<Setup, HoldRun>> = {};
  for (const setup of ['single', 'cluster', 'pair'] as const) {
    const run = await holdRun(setup, redis, durationMs);
    holds[setup] = run;
    progress(
      `capacity run ${r + 1}, ${setup}: ${Math.round(run.holdsPerSecond)} holds/s, main threads ${run.mains.map((ms) => Math.round(ms)).join(' + ')} ms, primary ${Math.round(run.primary)} ms, foreign ${run.foreignCores.toFixed(2)} cores`,
    );
  }
  const visitors = Number(process.env.BENCH_CAPACITY_VISITORS ?? (options.quick ? 1000 : 2000));
  const queue = await queueRun(redis, visitors, options.quick ? 5 : 10);
  progress(
    `capacity run ${r + 1}: queue ${queue.updates} updates measured (${queue.delivered} of ${queue.sent} delivered), ${queue.appUs.toFixed(1)} µs each, Redis ${queue.redisOneUs.toFixed(2)} / ${queue.redisTwoUs.toFixed(2)} µs, dropped ${queue.foreignUs.toFixed(2)} µs`,
  );
  const sockets = Number(process.env.BENCH_CAPACITY_SOCKETS ?? (options.quick ? 2000 : 5000));
  const perSocket = await eventSocketUs(sockets);
  progress(`capacity run ${r + 1}: ${perSocket.toFixed(3)} µs per event per socket`);
  return {
    single: holds.single!,
    cluster: holds.cluster!,
    pair: holds.pair!,
    queue,
    eventSocketUs: perSocket,
  };
}

export interface Check {
  predicted: Throughput;
  measured: number;
  error: number;
  /**
   * The part of the model that does not depend on how the machine's cores are shared: app CPU per
   * hold cycle over every process (the primary's included as measured), predicted and measured, ms.
   */
  appMs: { predicted: number; measured: number };
  run: HoldRun;
}

/** Each run's prediction from its own one-process costs and the foreign load sampled before it. */
function checksOf(runs: CapacityRun[], setup: 'cluster' | 'pair', cores: number): Check[] {
  return runs.map((run) => {
    const held = run[setup];
    const costs = costsOf(run);
    const predicted = twoProcessPrediction(costs, setup, cores, held.foreignCores);
    return {
      predicted,
      measured: held.holdsPerSecond,
      error: relativeError(predicted.holdsPerSecond, held.holdsPerSecond),
      appMs: { predicted: appMsPerHold(costs, 2), measured: held.window.cpu.app! / held.holds },
      run: held,
    };
  });
}

export async function capacity(options: BenchOptions): Promise<SectionResult> {
  const redis = await startPrivateRedis();
  const runs: CapacityRun[] = [];
  try {
    for (let r = 0; r < options.runs; r++) runs.push(await capacityRun(redis, options, r));
  } finally {
    await redis.stop();
  }
  const cores = os.cpus().length;
  const costs = medianCosts(runs.map(costsOf));
  // Every run's raw readings, for a closer look (BENCH_CAPACITY_RAW=FILE).
  if (process.env.BENCH_CAPACITY_RAW)
    fs.writeFileSync(process.env.BENCH_CAPACITY_RAW, `${JSON.stringify({ runs, costs }, null, 2)}\n`);
  const checks = { cluster: checksOf(runs, 'cluster', cores), pair: checksOf(runs, 'pair', cores) };
  const m = (list: Check[], f: (x: Check) => number) => median(list.map(f));
  const plans = {
    asBuilt: planLaunch(costs, LAUNCH, 'as-built'),
    proposed: planLaunch(costs, LAUNCH, 'proposed'),
  };
  const r2 = (x: number) => round(x, 2);
  const figure = (name: string, value: number, unit: string): Scenario => ({
    name,
    value,
    unit,
    baseline: null,
  });
  const scenarios: Scenario[] = [
    figure('capacity-cpu-ms-per-hold', round(costs.holdAppMs, 3), 'ms'),
    figure('capacity-main-thread-ms-per-hold', round(costs.holdMainMs, 3), 'ms'),
    figure('capacity-db-cpu-ms-per-hold', round(costs.holdDbMs, 3), 'ms'),
    figure('capacity-cpu-us-per-event-socket', round(costs.eventSocketUs, 3), 'µs'),
    figure('capacity-cpu-us-per-queue-update', r2(costs.queueUpdateUs), 'µs'),
    figure('capacity-db-cpu-us-per-queue-update', r2(costs.queueDbUs), 'µs'),
    figure('capacity-redis-cpu-us-per-broadcast', r2(median(runs.map((x) => x.queue.redisOneUs))), 'µs'),
    figure('capacity-redis-foreign-us-per-message', r2(costs.redisForeignUs), 'µs'),
    {
      name: 'capacity-two-process-holds',
      value: Math.round(m(checks.cluster, (x) => x.measured)),
      unit: 'holds/s',
      baseline: {
        name: 'capacity-two-process-predicted',
        value: Math.round(m(checks.cluster, (x) => x.predicted.holdsPerSecond)),
        unit: 'holds/s',
      },
    },
    figure(
      'capacity-two-process-prediction-error',
      round(
        m(checks.cluster, (x) => x.error),
        3,
      ),
      'ratio',
    ),
    figure(
      'capacity-two-separate-processes-prediction-error',
      round(
        m(checks.pair, (x) => x.error),
        3,
      ),
      'ratio',
    ),
  ];
  return {
    markdown: capacityMarkdown(
      { ...options, buyers: BUYERS, launch: LAUNCH, cores },
      costs,
      runs,
      checks,
      plans,
    ),
    scenarios,
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
