import { startPeriodicJob } from '../../platform/jobs/periodicJob';
import { registerKick } from './kick';
import { settleMinimumSales } from './minimumSales';
import { type BulkRefundDeps, runBulkRefundJob } from './refundJob';

// Applies the minimum-sales rule at end dates (minimumSales.ts), then runs the bulk refund jobs
// (refundJob.ts): at start-up (a job a crash interrupted resumes), on a
// timer, and at once when a competition is cancelled. One worker per database handle; stopping it
// waits for the pass under way, so the pool can close after it (the job's lease lets another
// process resume what is left).

interface Worker {
  deps: BulkRefundDeps;
  stopped: boolean;
  running: Set<Promise<void>>;
}

/** The competitions due under the minimum-sales rule, then every running job, in turn. */
async function pass(worker: Worker): Promise<void> {
  const { deps } = worker;
  const settled = await settleMinimumSales(deps);
  if (settled.extended.length || settled.cancelled.length)
    deps.logger.info(settled, 'competitions short of their minimum extended or cancelled');
  const jobs = (await deps
    .db('bulkRefundJobs')
    .where({ status: 'running' })
    .orderBy('id')
    .select('id')) as Array<{
    id: number;
  }>;
  for (const { id } of jobs) {
    if (worker.stopped) return;
    await runBulkRefundJob(deps, Number(id)).catch((err) =>
      deps.logger.error({ err, jobId: id }, 'bulk refund interrupted; it resumes on the next pass'),
    );
  }
}

function track(worker: Worker): Promise<void> {
  const run = pass(worker)
    .catch((err) => worker.deps.logger.error({ err }, 'bulk refund pass failed'))
    .finally(() => worker.running.delete(run));
  worker.running.add(run);
  return run;
}

/** Starts the worker (intervalMs 0: only at start-up and when kicked); returns its stop. */
export function startBulkRefundWorker(deps: BulkRefundDeps, intervalMs: number): () => Promise<void> {
  const worker: Worker = { deps, stopped: false, running: new Set() };
  registerKick(deps.db, () => {
    if (!worker.stopped) void track(worker);
  });
  const stopTimer = startPeriodicJob(intervalMs, () => track(worker), { runNow: true });
  return async () => {
    worker.stopped = true;
    await stopTimer();
    await Promise.allSettled([...worker.running]);
  };
}
