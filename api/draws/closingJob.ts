import { startPeriodicJob } from '../platform/jobs/periodicJob';
import { closeDueCompetitions, type DrawDeps, drawDueCompetitions } from './draws';

/**
 * Every `intervalMs`: closes competitions whose end date has passed, then draws those that are
 * due (auto-win at once, live-draw DRAW_AUTO_AFTER_SECONDS after the end date). Runs in every
 * process: closing is a conditional UPDATE and drawing is refused a second time by the database,
 * so each close and each draw happens (and is broadcast) once.
 */
export function startDrawJob(
  deps: DrawDeps,
  autoAfterSeconds: number,
  intervalMs: number,
): () => Promise<void> {
  // Stopping waits for a run in progress, so the database can be closed after it.
  return startPeriodicJob(intervalMs, async () => {
    try {
      const closed = await closeDueCompetitions(deps);
      if (closed.length) deps.logger.info({ closed }, 'closed competitions at their end date');
      const drawn = await drawDueCompetitions(deps, autoAfterSeconds);
      if (drawn.length) deps.logger.info({ drawn }, 'drew competitions automatically');
    } catch (err) {
      deps.logger.error({ err }, 'closing or drawing competitions failed');
    }
  });
}
