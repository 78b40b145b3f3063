import { describe, expect, it } from 'vitest';
import {
  appMsPerHold,
  asBuiltQueueCeiling,
  type Costs,
  holdsThroughput,
  type Launch,
  launchLoad,
  planLaunch,
  redisBroadcastUs,
  relativeError,
  socketDeliveriesPerSecond,
} from '../load/capacityModel';

// The capacity model (docs/operations.md#capacity) on round figures, so each answer can be
// worked out by hand.

const COSTS: Costs = {
  holdAppMs: 2,
  holdMainMs: 1.5,
  holdDbMs: 1,
  holdClientMs: 0.8,
  holdUnattributedMs: 0.2,
  publishesPerHold: 0,
  eventSocketUs: 2,
  queueUpdateUs: 20,
  queueDbUs: 1,
  redisForeignUs: 1,
  redisPublishUs: 3,
  redisDeliverUs: 1,
};

const SHARED = { sharedWithDatabase: true, sharedWithRedis: true, sharedWithClients: true };

describe('holdsThroughput', () => {
  it('is bound by the machine when everything shares its cores', () => {
    // 2 + 1 + 0.8 + 0.2 = 4 ms of the machine per hold: 2 cores serve 500/s; 2 main threads 1,333/s.
    const t = holdsThroughput(COSTS, { cores: 2, processes: 2, ...SHARED });
    expect(t.machineMsPerHold).toBeCloseTo(4);
    expect(t.holdsPerSecond).toBeCloseTo(500);
    expect(t.bound).toBe('machine');
    expect(t.byProcesses).toBeCloseTo(1333.33, 1);
  });

  it('is bound by the main threads when the cores are the processes own', () => {
    const alone = { sharedWithDatabase: false, sharedWithRedis: false, sharedWithClients: false };
    const t = holdsThroughput(COSTS, { cores: 8, processes: 2, ...alone });
    expect(t.bound).toBe('processes');
    expect(t.holdsPerSecond).toBeCloseTo(2000 / 1.5);
  });

  it('serves from one worker when the balancer hands it every connection', () => {
    const alone = { sharedWithDatabase: false, sharedWithRedis: false, sharedWithClients: false };
    const t = holdsThroughput(COSTS, { cores: 8, processes: 2, servingProcesses: 1, ...alone });
    expect(t.holdsPerSecond).toBeCloseTo(1000 / 1.5);
  });

  it('shares the machine with other work in proportion to what each wants', () => {
    // Alone this load wants both cores (500/s x 4 ms); other work wants 0.5: 2 x 2 / 2.5 = 1.6 cores.
    const busy = holdsThroughput(COSTS, { cores: 2, processes: 2, ...SHARED, foreignCores: 0.5 });
    expect(busy.holdsPerSecond).toBeCloseTo(400);
    // One serving process: 667/s x 4 ms = 2.67 cores wanted, and 1 core of other work fits beside it.
    const roomy = holdsThroughput(COSTS, {
      cores: 4,
      processes: 2,
      servingProcesses: 1,
      ...SHARED,
      foreignCores: 1,
    });
    expect(roomy.holdsPerSecond).toBeCloseTo(1000 / 1.5);
  });

  it('charges each process the other processes frames, read from Redis and dropped', () => {
    const costs = { ...COSTS, publishesPerHold: 0.5, redisForeignUs: 10 };
    // Two processes: each hold's 0.5 frames reach the other process: +5 µs on its main thread,
    // and Redis spends 0.5 x (3 + 2 x 1) µs.
    const t = holdsThroughput(costs, { cores: 2, processes: 2, ...SHARED });
    expect(t.machineMsPerHold).toBeCloseTo(4 + 0.005 + 0.0025);
    expect(t.byProcesses).toBeCloseTo(2000 / 1.505);
    expect(appMsPerHold(costs, 2)).toBeCloseTo(2.005);
    expect(appMsPerHold(costs, 1)).toBe(2);
  });
});

describe('redis and sockets', () => {
  it('costs Redis a publish plus one delivery per subscribed process', () => {
    expect(redisBroadcastUs(COSTS, 1)).toBe(4);
    expect(redisBroadcastUs(COSTS, 4)).toBe(7);
  });

  it('writes no more deliveries than its cores allow', () => {
    expect(socketDeliveriesPerSecond(COSTS, 4, 2)).toBe(1_000_000);
    expect(socketDeliveriesPerSecond(COSTS, 1, 2)).toBe(500_000);
  });
});

const LAUNCH: Launch = { watchers: 100_000, holdsPerSecond: 1000, changesPerHold: 2, queued: 100_000 };

describe('launchLoad', () => {
  it('as built, a watcher gets every process own frames, so frames grow with the processes', () => {
    const one = launchLoad(COSTS, LAUNCH, 1, 'as-built');
    const four = launchLoad(COSTS, LAUNCH, 4, 'as-built');
    // One process: 100,000 sockets x 2 µs = 200 ms a frame, so a tick of 400 ms: 2.5 frames/s.
    expect(one.framesPerWatcher).toBeCloseTo(2.5);
    // Four: 25,000 sockets, 50 ms a frame, ticks of 100 ms, 10 frames/s each, 40 in all.
    expect(four.framesPerWatcher).toBeCloseTo(40);
    expect(four.fanout).toBeGreaterThan(one.fanout);
  });

  it('as built, every process ticks and broadcasts every position through Redis', () => {
    const two = launchLoad(COSTS, { ...LAUNCH, holdsPerSecond: 0 }, 2, 'as-built');
    expect(two.redisBroadcastsPerSecond).toBe(200_000);
    // 100,000 x 20 µs own + 50,000 x 20 µs own visitors of the other's + 50,000 x 1 µs dropped.
    expect(two.queue).toBeCloseTo(2 + 1 + 0.05);
  });

  it('as built, caps the queue below what one process alone could hold', () => {
    // One process: 0.7 core / 20 µs = 35,000 visitors; two: each also sends half of the other's.
    expect(asBuiltQueueCeiling(COSTS, 1)).toBeCloseTo(35_000);
    expect(asBuiltQueueCeiling(COSTS, 2)).toBeCloseTo(0.7e6 / 30.5);
  });

  it('proposed, a watcher gets one coalesced stream and the positions stay off Redis', () => {
    const ten = launchLoad(COSTS, LAUNCH, 10, 'proposed');
    expect(ten.framesPerWatcher).toBeCloseTo(20);
    expect(ten.queue).toBeCloseTo((5000 * 20) / 1e6);
    expect(ten.redisBroadcastsPerSecond).toBeCloseTo(10 * 20 + 1000);
  });
});

describe('planLaunch', () => {
  it('finds no count as built when the fan-out or the queue outgrows every process', () => {
    const plan = planLaunch(COSTS, LAUNCH, 'as-built');
    expect(plan.processes).toBeNull();
    // Every process ticks for every visitor: 100,000 x 20 µs = 2 cores each, whatever N is.
    expect(plan.bottleneck).toBe('queue');
  });

  it('answers the fewest processes under the target share, proposed', () => {
    const plan = planLaunch(COSTS, LAUNCH, 'proposed', { targetShare: 0.7 });
    expect(plan.processes).not.toBeNull();
    const n = plan.processes!;
    expect(plan.load.total).toBeLessThanOrEqual(0.7);
    expect(launchLoad(COSTS, LAUNCH, n - 1, 'proposed').total).toBeGreaterThan(0.7);
    // 1,000 holds x 1 ms of MariaDB, and one read of the waiting rows every 2 s.
    expect(plan.load.databaseCores).toBeCloseTo(1 + 50_000 / 1e6);
  });

  it('names Redis when the processes fit but Redis does not', () => {
    const plan = planLaunch({ ...COSTS, redisPublishUs: 2000 }, LAUNCH, 'proposed');
    expect(plan.processes).toBeNull();
    expect(plan.bottleneck).toBe('redis');
  });
});

it('relativeError is |predicted - measured| / measured', () => {
  expect(relativeError(120, 100)).toBeCloseTo(0.2);
  expect(relativeError(80, 100)).toBeCloseTo(0.2);
});
