// npm run swarm: many customers racing on one competition through the real UI (or, with
// --protocol, through HTTP and Socket.IO), then the invariants. docs/swarm.md.
// Exit code: 0 all invariants hold, 1 a violation, 2 refused or could not run.
import { parseOptions, UsageError } from './options';
import { RefusedError } from './preflight';
import type { Recorder } from './recorder';
import { writeOutputs } from './report';
import { runSwarm } from './run';

function progress(recorder: Recorder, durationSeconds: number, customers: number): () => void {
  const tty = process.stderr.isTTY;
  let last = 0;
  const timer = setInterval(() => {
    const elapsed = Math.round((Date.now() - recorder.startedAt) / 1000);
    const hold = recorder.samples.filter((s) => s.step === 'hold').map((s) => s.ms);
    const line = !recorder.shopping
      ? `signing up customers: ${recorder.customers}/${customers} (errors ${recorder.errors.length})`
      : `${elapsed}/${durationSeconds}s customers ${recorder.customers} holds ${recorder.holds} ` +
        `purchases ${recorder.purchases} numbers ${recorder.numbersBought} conflicts ${recorder.conflicts.length} ` +
        `errors ${recorder.errors.length} last hold ${hold.at(-1) ?? '-'} ms`;
    if (tty) process.stderr.write(`\r${line.padEnd(110)}`);
    else if (elapsed - last >= 5) {
      last = elapsed;
      console.error(line);
    }
  }, 1000);
  return () => {
    clearInterval(timer);
    if (tty) process.stderr.write('\n');
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  let stopProgress = () => {};
  let active: Recorder | undefined;
  // A promise the journeys let go of (a page closed under a pending wait) is the run's error, not a crash.
  process.on('unhandledRejection', (err) => active?.error(`unhandled: ${(err as Error)?.message ?? err}`));
  const result = await runSwarm(options, (pre, recorder) => {
    active = recorder;
    for (const w of pre.warnings) console.warn(`warning: ${w}`);
    console.info(
      `Swarm: ${options.protocol ? `${options.clients} protocol clients` : `${options.browsers} browsers x ${options.pagesPerBrowser} pages`} ` +
        `on '${pre.competition.title}' (${options.base}) for ${options.durationSeconds} s; skill answers from ${pre.answers.size ? 'the admin API' : `the default ('365')`}`,
    );
    stopProgress = progress(
      recorder,
      options.durationSeconds,
      options.protocol ? options.clients : options.browsers * options.pagesPerBrowser,
    );
  }).finally(() => stopProgress());
  writeOutputs(result, options);
  const f = result.figures;
  console.info(
    `customers ${f.customers}, purchases ${f.purchases}, numbers bought ${f.numbersBought}, conflicts shown ${f.conflictsShown}, ` +
      `errors ${f.errors}, console errors ${f.consoleErrors}, failed requests ${f.failedRequests}`,
  );
  console.info(
    `staleness p50/p95/p99 ${f.staleness.p50}/${f.staleness.p95}/${f.staleness.p99} ms over ${f.staleness.samples} changes`,
  );
  if (f.launch) {
    const l = f.launch;
    console.info(
      `launch: ${l.joined} joined, ${l.admitted} let in, ${l.paid} paid; hold p50/p99 ${l.holdP50}/${l.holdP99} ms; ` +
        `queue staleness p50/p99 ${l.stalenessP50}/${l.stalenessP99} ms over ${l.stalenessSamples} positions; ` +
        `update gap p99 ${l.updateGapP99} ms; fairness rho ${l.fairnessRho.toFixed(3)}; 5xx ${l.serverErrors}`,
    );
  }
  for (const [step, p] of Object.entries(f.steps))
    console.info(`  ${step.padEnd(9)} p50 ${p.p50} ms, p95 ${p.p95} ms, p99 ${p.p99} ms (${p.count})`);
  for (const message of f.errorMessages.slice(0, 5)) console.warn(`error: ${message}`);
  if (options.report) console.info(`HTML report: ${options.report}`);
  if (options.json) console.info(`JSON: ${options.json}`);
  if (f.violations.length) {
    for (const v of f.violations) console.error(`VIOLATION: ${v}`);
    return 1;
  }
  console.info('No violations.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError || err instanceof RefusedError) console.error(err.message);
    else console.error(err);
    process.exit(2);
  },
);
