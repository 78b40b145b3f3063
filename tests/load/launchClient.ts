// A launch client process (scenarios/launch.ts): BENCH_CLIENTS visitors of a queued launch
// (scripts/swarm/launchVisitor.ts), each its own session and Socket.IO connection. 'prepare'
// registers them and joins the queue, BENCH_CONCURRENCY at a time; each then waits for its
// admission, holds a Lucky Dip and pays. 'collect' answers their reports once all are done or
// the deadline passes, with the same rush's GET /api/health latencies as the baseline.
import { LaunchVisitor, type VisitorReport } from '../../scripts/swarm/launchVisitor';
import { TestClient } from '../support/httpClient';

const url = process.env.BENCH_URL!;
const count = Number(process.env.BENCH_CLIENTS);
const competitionId = Number(process.env.BENCH_COMPETITION);
const prefix = process.env.BENCH_PREFIX ?? 'launch';
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const probeEvery = Number(process.env.BENCH_PROBE_EVERY ?? 50);
const probeAhead = Number(process.env.BENCH_PROBE_AHEAD ?? 500);

const visitors = Array.from(
  { length: count },
  (_, i) =>
    new LaunchVisitor({
      base: url,
      competitionId,
      label: `${prefix}${i}`,
      cardNumber: '4242 4242 4242 4242',
      answer: () => '365',
      // Watching the grid too (BENCH_LAUNCH_WATCH=1) puts every hold's fan-out to 2,000 sockets on
      // the client processes sharing these cores: they, not the server, then set the latencies.
      watch: process.env.BENCH_LAUNCH_WATCH === '1',
      // A few visitors far back in the queue try a hold while waiting: the gate must refuse it.
      probeAhead: i % probeEvery === 0 ? probeAhead : null,
    }),
);

async function prepareAll(): Promise<number> {
  let next = 0;
  let joined = 0;
  const worker = async () => {
    while (next < visitors.length) if (await visitors[next++]!.prepare()) joined++;
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, visitors.length) }, worker));
  return joined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** The baseline: GET /api/health every 100 ms from `from` (epoch ms) until `stopped()`, in ms. */
async function healthDuring(from: number, stopped: () => boolean): Promise<number[]> {
  const pinger = new TestClient(url);
  const latencies: number[] = [];
  await pause(from - Date.now());
  while (!stopped()) {
    const started = performance.now();
    await pinger.get('/api/health');
    latencies.push(Math.round(performance.now() - started));
    await pause(100);
  }
  return latencies;
}

process.on('message', async (message: { type: string; deadline?: number; startsAt?: number }) => {
  if (message.type === 'prepare') {
    const joined = await prepareAll();
    process.send?.({ type: 'joined', joined });
  } else if (message.type === 'collect') {
    let finished = false;
    const health = healthDuring(message.startsAt!, () => finished);
    const reports: VisitorReport[] = await Promise.all(visitors.map((v) => v.done(message.deadline!)));
    finished = true;
    process.send?.({ type: 'report', reports, health: await health });
  } else if (message.type === 'close') {
    for (const v of visitors) v.close();
    process.exit(0);
  }
});
process.send?.({ type: 'ready' });
