import type { Knex } from 'knex';
import { openDueCompetitions } from '../catalogue/launch/openingJob';
import { startPeriodicJob } from '../platform/jobs/periodicJob';
import { inUnitOfWork } from '../platform/unitOfWork';
import { bumpVersionNow } from '../tickets/competitionVersions';
import { type DrawDeps, emitCompetitionUpdated } from './drawable';
import { drawCompetition, isRetryLater } from './draws';

// The closing job: closes competitions at their end date and draws those that are due.

/**
 * No minimum, or it was reached. One short of it is left open past its end date (nothing can be
 * held then) for the minimum-sales rule to extend or cancel (api/orders/bulkRefund/minimumSales.ts).
 */
const metMinimum = (db: Knex) => (q: Knex.QueryBuilder) =>
  q.whereNull('minTicketsSold').orWhere('ticketsSold', '>=', db.ref('minTicketsSold'));

/**
 * Closes every active competition whose end date has passed (status 'ended', version bumped,
 * `competition:updated` once). A conditional UPDATE: with several processes only one closes each.
 */
export async function closeDueCompetitions(deps: DrawDeps, now = Date.now()): Promise<number[]> {
  const due = (await deps
    .db('competitions')
    .where('status', 'active')
    .where('endDate', '<=', now)
    .where(metMinimum(deps.db))
    .select('id')) as Array<{ id: number }>;
  const closed: number[] = [];
  for (const { id } of due) {
    const closedNow = await inUnitOfWork(deps, async (uow) => {
      const changed = await uow
        .trx('competitions')
        .where({ id, status: 'active' })
        .where('endDate', '<=', now)
        .where(metMinimum(uow.trx))
        .update({ status: 'ended', updatedAt: now });
      if (!changed) return false;
      await emitCompetitionUpdated(uow, id, await bumpVersionNow(uow.trx, id));
      return true;
    });
    if (closedNow) closed.push(id);
  }
  return closed;
}

/**
 * Draws closed competitions that are due: auto-win ones at once, live-draw ones
 * `autoAfterSeconds` after their end date (0: never, an admin draws them). Not ready yet (holds
 * still payable) or drawn meanwhile by another process: skipped until the next run.
 */
export async function drawDueCompetitions(
  deps: DrawDeps,
  autoAfterSeconds: number,
  now = Date.now(),
): Promise<number[]> {
  const candidates = (await deps
    .db('competitions')
    .where('status', 'ended')
    .whereNull('drawnAt')
    .where('ticketsSold', '>', 0)
    .select('id', 'autoWin', 'endDate', 'drawBeaconRound')) as Array<{
    id: number;
    autoWin: number | boolean;
    endDate: number;
    drawBeaconRound: number | null;
  }>;
  const drawn: number[] = [];
  for (const c of candidates) {
    // A fixed round means the draw was decided (Draw now, a sell-out): it follows the round.
    const due =
      Boolean(c.autoWin) ||
      c.drawBeaconRound !== null ||
      (autoAfterSeconds > 0 && Number(c.endDate) + autoAfterSeconds * 1000 <= now);
    if (!due) continue;
    try {
      const outcome = await drawCompetition(deps, c.id, { kind: 'auto' }, now);
      if (outcome.kind === 'drawn') drawn.push(c.id);
    } catch (err) {
      // 409: not ready yet, or another process drew it; 503: the beacon failed (recorded, retried
      // next time). Anything else must not stop the others.
      if (!isRetryLater(err)) {
        deps.logger.error({ err, competitionId: c.id }, 'automatic draw failed');
      }
    }
  }
  return drawn;
}

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
      const opened = await openDueCompetitions(deps);
      if (opened.length) deps.logger.info({ opened }, 'opened scheduled competitions');
      const closed = await closeDueCompetitions(deps);
      if (closed.length) deps.logger.info({ closed }, 'closed competitions at their end date');
      const drawn = await drawDueCompetitions(deps, autoAfterSeconds);
      if (drawn.length) deps.logger.info({ drawn }, 'drew competitions automatically');
    } catch (err) {
      deps.logger.error({ err }, 'closing or drawing competitions failed');
    }
  });
}
