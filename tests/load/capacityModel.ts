// The capacity model (docs/operations.md#capacity): from the CPU costs `npm run bench -- capacity`
// measures, what N app processes on C cores serve, and how many processes, what MariaDB and what
// Redis a launch needs. Pure arithmetic, no I/O: tests/unit/capacityModel.test.ts checks it.

/** The measured costs (tests/load/scenarios/capacity.ts). Times are CPU time, all threads unless said. */
export interface Costs {
  /** App process CPU per hold cycle (the hold and the request after it: a release here), ms. */
  holdAppMs: number;
  /** Of `holdAppMs`, the part on the JavaScript main thread, ms: what caps one process at one core. */
  holdMainMs: number;
  /** MariaDB CPU per hold cycle, ms. */
  holdDbMs: number;
  /** The load clients' CPU per hold cycle, ms (counts only where they share the machine). */
  holdClientMs: number;
  /** CPU per hold cycle that no process above was charged with (the kernel's loopback work), ms. */
  holdUnattributedMs: number;
  /** Room broadcasts (Redis PUBLISHes) per hold cycle, after the app's coalescing. */
  publishesPerHold: number;
  /** App CPU per frame per watching socket, µs. */
  eventSocketUs: number;
  /**
   * App CPU per queue position update in the process that ticks, the visitor's socket on it: its
   * share of the tick's read, the broadcast through Redis and the write, µs.
   */
  queueUpdateUs: number;
  /** MariaDB CPU per queue position update (the tick reads every waiting row), µs. */
  queueDbUs: number;
  /** App CPU per Redis message for a room the process does not have (read and dropped), µs. */
  redisForeignUs: number;
  /** Redis CPU per PUBLISH, µs, plus `redisDeliverUs` for each subscribed process. */
  redisPublishUs: number;
  redisDeliverUs: number;
}

/** Where the app processes run and what shares their cores. */
export interface Machine {
  cores: number;
  /** App processes, each subscribed to Redis. */
  processes: number;
  /**
   * Of those, the ones the HTTP requests reach (default all). WEB_CONCURRENCY's primary hands each
   * new connection to the worker with the fewest Socket.IO sessions, the first on a tie
   * (@socket.io/sticky `least-connection`): clients without a socket all reach one worker.
   */
  servingProcesses?: number;
  /** MariaDB, Redis and the load clients on the same cores (this bench machine), or elsewhere. */
  sharedWithDatabase: boolean;
  sharedWithRedis: boolean;
  sharedWithClients: boolean;
  /** Cores other work (not this site) keeps busy when this load is not running. */
  foreignCores?: number;
}

/** Redis CPU per broadcast with `subscribers` processes subscribed (each gets every message), µs. */
export const redisBroadcastUs = (c: Costs, subscribers: number) =>
  c.redisPublishUs + subscribers * c.redisDeliverUs;

/** The other processes' CPU per hold cycle for its frames, read from Redis and dropped, ms. */
const droppedFramesMs = (c: Costs, others: number) => (c.publishesPerHold * others * c.redisForeignUs) / 1000;

/** App CPU per hold cycle over all N processes (the hold, and the others dropping its frames), ms. */
export const appMsPerHold = (c: Costs, processes: number) => c.holdAppMs + droppedFramesMs(c, processes - 1);

export interface Throughput {
  holdsPerSecond: number;
  /** What stops it: the serving processes' main threads full, or every core of the machine. */
  bound: 'processes' | 'machine';
  byProcesses: number;
  byMachine: number;
  /** CPU per hold cycle on the machine, ms. */
  machineMsPerHold: number;
}

/**
 * Holds per second of the contention load (200 buyers, Lucky Dips, each released before the next)
 * on N processes: each serving process's main thread takes at most one core, and also drops the
 * other serving processes' frames (no watchers here); the machine's cores are shared by whatever
 * runs on it. The WEB_CONCURRENCY primary's own work (accepting and handing over connections) is
 * not modelled.
 */
export function holdsThroughput(c: Costs, m: Machine): Throughput {
  const n = m.processes;
  const serving = Math.min(n, m.servingProcesses ?? n);
  const byProcesses = (serving * 1000) / (c.holdMainMs + droppedFramesMs(c, serving - 1));
  // Every process subscribes, so each frame is delivered N times and dropped by N - 1.
  const redisMs = (c.publishesPerHold * redisBroadcastUs(c, n)) / 1000;
  const machineMsPerHold =
    c.holdAppMs +
    droppedFramesMs(c, n - 1) +
    (m.sharedWithDatabase ? c.holdDbMs : 0) +
    (m.sharedWithRedis ? redisMs : 0) +
    (m.sharedWithClients ? c.holdClientMs + c.holdUnattributedMs : 0);
  // Alone, this load would keep `demand` cores busy. Other work that would keep `foreign` busy
  // takes what is left; when both want more than the machine, the scheduler shares it in
  // proportion to what each wants (its runnable threads).
  const demand = (Math.min(byProcesses, (m.cores * 1000) / machineMsPerHold) * machineMsPerHold) / 1000;
  const foreign = m.foreignCores ?? 0;
  const cores = demand + foreign <= m.cores ? m.cores - foreign : (m.cores * demand) / (demand + foreign);
  const byMachine = (cores * 1000) / machineMsPerHold;
  return {
    holdsPerSecond: Math.min(byProcesses, byMachine),
    bound: byProcesses <= byMachine ? 'processes' : 'machine',
    byProcesses,
    byMachine,
    machineMsPerHold,
  };
}

/** Socket deliveries (frames x watching sockets) per second N processes on C cores can write. */
export function socketDeliveriesPerSecond(c: Costs, processes: number, cores: number): number {
  return (Math.min(processes, cores) * 1e6) / c.eventSocketUs;
}

/** When ticket changes are coalesced (realtime/ticketBatches.ts DEFAULT_BATCHING). */
export interface Batching {
  tickMs: number;
  maxShare: number;
  /** Changes a second above which a room's changes wait for ticks (10 within 250 ms: 40). */
  burstPerSecond: number;
}

export const APP_BATCHING: Batching = { tickMs: 50, maxShare: 0.5, burstPerSecond: 40 };

export interface Launch {
  watchers: number;
  holdsPerSecond: number;
  /** Ticket changes each hold cycle makes (the hold, then the sale or release): 2. */
  changesPerHold: number;
  /** Visitors waiting in the launch queue at the peak (everyone, at the opening). */
  queued: number;
}

/**
 * - `as-built`: every process coalesces only its own holds' changes and publishes its frames
 *   through Redis; every process ticks the queue every second and broadcasts every waiting
 *   visitor's position through Redis.
 * - `proposed` (not built): a process coalesces the frames it receives too, so a watcher gets one
 *   frame per tick whatever N is; one tick every 2 s for the cluster, and each process sends the
 *   positions of its own visitors to their sockets, not through Redis.
 */
export type Design = 'as-built' | 'proposed';

export interface ProcessLoad {
  processes: number;
  /** Cores of one process's main thread, by what uses them. */
  holds: number;
  fanout: number;
  queue: number;
  total: number;
  /** Frames a watcher receives per second. */
  framesPerWatcher: number;
  redisBroadcastsPerSecond: number;
  redisCores: number;
  databaseCores: number;
}

/** Frames a second one process's own batcher sends for a room, writing to `localWatchers`. */
function ownFrames(c: Costs, b: Batching, changesPerSecond: number, localWatchers: number): number {
  if (changesPerSecond <= b.burstPerSecond) return changesPerSecond;
  const writeMs = (localWatchers * c.eventSocketUs) / 1000;
  const tickMs = Math.max(b.tickMs, writeMs / b.maxShare);
  return Math.min(changesPerSecond, 1000 / tickMs);
}

/**
 * As built, the app CPU each waiting visitor costs every process each second, µs: its own tick
 * (an upper bound: as if every visitor's socket were on it), plus the other processes' broadcasts,
 * 1/N for its own visitors, the rest read from Redis and dropped.
 */
const asBuiltQueueUs = (c: Costs, n: number) =>
  c.queueUpdateUs + ((n - 1) / n) * c.queueUpdateUs + (n - 1) * (1 - 1 / n) * c.redisForeignUs;

/** As built, the most visitors a launch queue can hold with N processes, each main thread at `share`. */
export const asBuiltQueueCeiling = (c: Costs, n: number, share = 0.7) => (share * 1e6) / asBuiltQueueUs(c, n);

/** The load of a launch on each of N app processes, and on MariaDB and Redis. */
export function launchLoad(
  c: Costs,
  launch: Launch,
  n: number,
  design: Design,
  b: Batching = APP_BATCHING,
): ProcessLoad {
  const local = launch.watchers / n;
  const changes = launch.holdsPerSecond * launch.changesPerHold;
  const holds = ((launch.holdsPerSecond / n) * c.holdMainMs) / 1000;
  const ownPerProcess = ownFrames(c, b, changes / n, local);
  // As built, a watcher gets every process's frames; proposed, one coalesced stream per process.
  const framesPerWatcher = design === 'as-built' ? n * ownPerProcess : ownFrames(c, b, changes, local);
  const fanout = (local * framesPerWatcher * c.eventSocketUs) / 1e6;
  const q = launch.queued;
  let queue: number;
  let queueBroadcasts: number;
  let queueReads: number;
  if (design === 'as-built') {
    queue = (q * asBuiltQueueUs(c, n)) / 1e6;
    queueBroadcasts = n * q;
    queueReads = n * q;
  } else {
    queue = ((q / n / 2) * c.queueUpdateUs) / 1e6;
    queueBroadcasts = 0;
    queueReads = q / 2;
  }
  const ticketBroadcasts = n * ownPerProcess;
  // Admissions (`queue:admitted`, one per hold at the launch's rate) go through Redis as built and proposed.
  const redisBroadcastsPerSecond = ticketBroadcasts + queueBroadcasts + launch.holdsPerSecond;
  return {
    processes: n,
    holds,
    fanout,
    queue,
    total: holds + fanout + queue,
    framesPerWatcher,
    redisBroadcastsPerSecond,
    redisCores: (redisBroadcastsPerSecond * redisBroadcastUs(c, n)) / 1e6,
    databaseCores: (launch.holdsPerSecond * c.holdDbMs) / 1000 + (queueReads * c.queueDbUs) / 1e6,
  };
}

export interface LaunchPlan {
  /** The fewest processes that keep each main thread at or under `targetShare`, or null. */
  processes: number | null;
  load: ProcessLoad;
  /**
   * When no count fits: the count with the lightest process, and what stops it: Redis when some
   * count fits the processes, else the part whose smallest share of a process is the largest.
   */
  bottleneck?: 'holds' | 'fanout' | 'queue' | 'redis';
}

/**
 * How many app processes serve `launch`: each main thread busy at most `targetShare` (headroom
 * for latency and a process lost), Redis (one thread) at most `redisShare` of a core.
 */
export function planLaunch(
  c: Costs,
  launch: Launch,
  design: Design,
  { targetShare = 0.7, redisShare = 0.5, maxProcesses = 256 } = {},
): LaunchPlan {
  const parts = ['holds', 'fanout', 'queue'] as const;
  // Each part's smallest share of a process over every count: the part that never fits is the bottleneck.
  const least = { holds: Infinity, fanout: Infinity, queue: Infinity };
  let lightest: ProcessLoad | undefined;
  let fitsButRedis = false;
  for (let n = 1; n <= maxProcesses; n++) {
    const load = launchLoad(c, launch, n, design);
    if (load.total <= targetShare && load.redisCores <= redisShare) return { processes: n, load };
    if (load.total <= targetShare) fitsButRedis = true;
    for (const part of parts) least[part] = Math.min(least[part], load[part]);
    if (!lightest || load.total < lightest.total) lightest = load;
  }
  const worst = [...parts].sort((a, b) => least[b] - least[a])[0]!;
  return { processes: null, load: lightest!, bottleneck: fitsButRedis ? 'redis' : worst };
}

/** |predicted - measured| / measured. */
export const relativeError = (predicted: number, measured: number) =>
  measured > 0 ? Math.abs(predicted - measured) / measured : Number.POSITIVE_INFINITY;
