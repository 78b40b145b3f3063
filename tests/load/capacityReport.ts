// The capacity section's Markdown (scenarios/capacity.ts): the measured costs, the two-process
// check run by run, and the model's answer for a launch, as docs/operations.md#capacity shows them.
import { asBuiltQueueCeiling, type Costs, type Launch, type LaunchPlan } from './capacityModel';
import { type BenchOptions, formatCount } from './harness';
import type { CapacityRun, Check } from './scenarios/capacity';

function checkRows(label: string, list: Check[]): string[] {
  return list.map(
    (x, i) =>
      `| ${label}, run ${i + 1} | ${x.run.foreignCores.toFixed(2)} | ${Math.round(x.predicted.holdsPerSecond)} (${x.predicted.bound}) | ${Math.round(x.measured)} | ${(100 * x.error).toFixed(1)}% | ${x.appMs.predicted.toFixed(2)} / ${x.appMs.measured.toFixed(2)} | ${x.run.mains.map((ms) => Math.round(ms)).join(' / ')} | ${Math.round(x.run.primary)} |`,
  );
}

export function capacityMarkdown(
  { runs: count, buyers, launch, cores }: BenchOptions & { buyers: number; launch: Launch; cores: number },
  c: Costs,
  runs: CapacityRun[],
  checks: { cluster: Check[]; pair: Check[] },
  plans: { asBuilt: LaunchPlan; proposed: LaunchPlan },
): string {
  const f = (x: number, d = 2) => x.toFixed(d);
  const single = runs.map((r) => Math.round(r.single.holdsPerSecond)).join(', ');
  const lines = [
    '### Capacity: the costs, and two processes predicted against measured',
    '',
    `Median of ${count} run(s). Holds: ${buyers} buyers, Lucky Dips of 1-3 on 100,000 numbers, each released before the next (a hold cycle); one app process with the Redis adapter on, a Redis of the bench's own (one process: ${single} holds/s).`,
    '',
    '| cost | value |',
    '|---|---:|',
    `| app CPU per hold cycle (of it, main thread) | ${f(c.holdAppMs)} ms (${f(c.holdMainMs)} ms) |`,
    `| MariaDB CPU per hold cycle | ${f(c.holdDbMs)} ms |`,
    `| load clients' CPU per hold cycle; unattributed (kernel) | ${f(c.holdClientMs)} ms; ${f(c.holdUnattributedMs)} ms |`,
    `| Redis PUBLISHes per hold cycle (coalesced frames) | ${f(c.publishesPerHold, 3)} |`,
    `| app CPU per event per watching socket | ${f(c.eventSocketUs, 3)} µs |`,
    `| app CPU per queue position update (tick, broadcast through Redis, write) | ${f(c.queueUpdateUs, 1)} µs |`,
    `| MariaDB CPU per queue position update | ${f(c.queueDbUs, 1)} µs |`,
    `| Redis CPU per broadcast: PUBLISH + each subscribed process | ${f(c.redisPublishUs)} + ${f(c.redisDeliverUs)} µs |`,
    `| app CPU per Redis message for a room the process lacks | ${f(c.redisForeignUs)} µs |`,
    '',
    `Two processes on this machine (${cores} cores shared with MariaDB, Redis and the load clients), each run predicted from its own one-process costs and the foreign load sampled in the 2 s before it:`,
    '',
    '| setup | foreign load, cores | predicted holds/s (bound) | measured holds/s | error | app CPU per hold cycle, ms: predicted / measured | main-thread CPU per process, ms | primary CPU, ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...checkRows('WEB_CONCURRENCY=2', checks.cluster),
    ...checkRows('two processes, buyers split', checks.pair),
    '',
    `5xx: ${runs.map((r) => `${r.single.serverErrors}/${r.cluster.serverErrors}/${r.pair.serverErrors}`).join(', ')} (one process/WEB_CONCURRENCY=2/two processes). Queue updates delivered: ${runs.map((r) => `${formatCount(r.queue.delivered)} of ${formatCount(r.queue.sent)}`).join('; ')}.`,
    '',
    `As built, the most visitors one launch queue holds with each main thread at 0.7 of a core: ${[1, 2, 4, 8].map((n) => `${n} process${n > 1 ? 'es' : ''} ${formatCount(Math.round(asBuiltQueueCeiling(c, n)))}`).join(', ')}.`,
    '',
    `A launch of ${formatCount(launch.watchers)} watchers (all queued at the opening) and ${formatCount(launch.holdsPerSecond)} holds/s:`,
    '',
    '| design | app processes | per process: holds + fan-out + queue (cores) | frames per watcher/s | MariaDB cores | Redis broadcasts/s, cores |',
    '|---|---:|---|---:|---:|---|',
    ...(['asBuilt', 'proposed'] as const).map((k) => {
      const p = plans[k];
      const l = p.load;
      return `| ${k === 'asBuilt' ? 'as built' : 'proposed'} | ${p.processes ?? `none (lightest at ${l.processes}: ${p.bottleneck})`} | ${f(l.holds)} + ${f(l.fanout)} + ${f(l.queue)} = ${f(l.total)} | ${f(l.framesPerWatcher, 1)} | ${f(l.databaseCores)} | ${formatCount(Math.round(l.redisBroadcastsPerSecond))}, ${f(l.redisCores)} |`;
    }),
    '',
  ];
  return lines.join('\n');
}
