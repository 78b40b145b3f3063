// One swarm from start to figures: preflight, the customers (browsers or --protocol clients), the
// invariants, and the figures for the report.
import { TestClient } from '../../tests/support/httpClient';
import { runBrowsers } from './browserSwarm';
import { checkInvariants } from './invariants';
import type { LaunchFigures } from './launchFigures';
import { createLaunchCompetition, type LaunchSwarmRun, runLaunch } from './launchSwarm';
import type { SwarmRun } from './mode';
import type { SwarmOptions } from './options';
import { HoldPacer } from './pacer';
import { type Preflight, preflight } from './preflight';
import { runProtocol } from './protocolSwarm';
import { type Percentiles, Recorder, type Staleness, type Step } from './recorder';

export interface SwarmFigures {
  mode: 'browsers' | 'protocol';
  base: string;
  competition: { id: number; title: string; totalTickets: number };
  startedAt: string;
  durationMs: number;
  customers: number;
  purchases: number;
  numbersBought: number;
  holds: number;
  conflictsShown: number;
  errors: number;
  consoleErrors: number;
  failedRequests: number;
  /** Time holds waited to keep within the site's hold limits, summed over customers. */
  holdWaitMs: number;
  /** Milliseconds after the start at which nothing was left to hold and the customers stopped; null if never. */
  soldOutAfterMs: number | null;
  /** The watcher saw numbers 1 to this (its grid renders at most about 3,300 cells). */
  watchedNumbers: number;
  staleness: Omit<Staleness, 'values'>;
  steps: Record<Step, Percentiles>;
  violations: string[];
  warnings: string[];
  errorMessages: string[];
  failedRequestSamples: string[];
  /** --launch: the queued launch's figures (docs/swarm.md#a-queued-launch); null otherwise. */
  launch: LaunchFigures | null;
}

export interface SwarmResult {
  figures: SwarmFigures;
  recorder: Recorder;
  staleness: Staleness;
}

export async function runSwarm(options: SwarmOptions, onStart: (pre: Preflight, recorder: Recorder) => void) {
  const customers = options.protocol ? options.clients : options.browsers * options.pagesPerBrowser;
  const runId = Date.now().toString(36);
  if (options.launch) options.competitionId = await createLaunchCompetition(options, runId);
  const pre = await preflight(options, customers);
  const recorder = new Recorder();
  const pacer = new HoldPacer(pre.holdLimits);
  onStart(pre, recorder);
  const soldBefore = pre.competition.ticketsSold;
  const mode = options.launch ? runLaunch : options.protocol ? runProtocol : runBrowsers;
  const run: SwarmRun | LaunchSwarmRun = await mode({ options, pre, recorder, pacer, runId });
  const endedAt = Date.now();
  const visitor = new TestClient(options.base);
  let violations: string[];
  try {
    violations = [
      ...(await checkInvariants({
        competitionId: options.competitionId,
        soldBefore,
        numbersBought: recorder.numbersBought,
        customers: run.customers,
        get: (path) => visitor.get(path),
      })),
      ...(await run.finalViolations()),
    ];
  } finally {
    await run.close();
  }
  const staleness = recorder.staleness(run.isWatched);
  const { values: _values, ...stalenessFigures } = staleness;
  const figures: SwarmFigures = {
    mode: options.protocol ? 'protocol' : 'browsers',
    base: options.base,
    competition: {
      id: pre.competition.id,
      title: pre.competition.title,
      totalTickets: pre.competition.totalTickets,
    },
    startedAt: new Date(recorder.startedAt).toISOString(),
    durationMs: endedAt - recorder.startedAt,
    customers: recorder.customers,
    purchases: recorder.purchases,
    numbersBought: recorder.numbersBought,
    holds: recorder.holds,
    conflictsShown: recorder.conflicts.length,
    errors: recorder.errors.length,
    consoleErrors: recorder.consoleErrors,
    failedRequests: recorder.failedRequests,
    holdWaitMs: Math.round(pacer.waitedMs),
    watchedNumbers: run.watchedNumbers(),
    soldOutAfterMs: recorder.soldOutAt === null ? null : recorder.soldOutAt - recorder.startedAt,
    staleness: stalenessFigures,
    steps: recorder.stepFigures(),
    violations,
    warnings: [
      ...pre.warnings,
      ...(recorder.soldOutAt === null
        ? []
        : [
            `Nothing was left to hold ${((recorder.soldOutAt - recorder.startedAt) / 1000).toFixed(1)} s in: the customers stopped there.`,
          ]),
    ],
    errorMessages: recorder.errors.slice(0, 50).map((e) => e.message),
    failedRequestSamples: recorder.failedRequestSamples,
    launch: 'launch' in run ? (run as LaunchSwarmRun).launch : null,
  };
  return { figures, recorder, staleness };
}
