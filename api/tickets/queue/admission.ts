import type { Knex } from 'knex';
import { etaSecondsOf, shuffledOrder } from '../../../contract/launchQueue';
import { lockRows } from '../../../db/locks';
import { Competition } from '../../../db/models';
import { startPeriodicJob } from '../../platform/jobs/periodicJob';
import { inUnitOfWork, type UnitOfWork } from '../../platform/unitOfWork';
import { adminQueueView } from './admin';
import { ownerRefOf, rowOf, waitingQuery } from './entries';
import type { QueueJobDeps, QueueSettings } from './places';
import './events';

// The launch queue's tick (docs/draws.md#launch-queue), every second in every process, each queue
// under its competition row's lock: at the opening the shuffle, then admissions at the rate, and
// after COMMIT `queue:admitted`, every waiting visitor's `queue:position` and the admins' numbers.

/** Positions 1..N by the seed for those who joined before the opening (contract shuffledOrder). */
async function shuffle(trx: Knex.Transaction, c: Competition, now: number) {
  const early = (await trx('launchQueueEntries')
    .where({ competitionId: c.id })
    .where('joinedAt', '<', Number(c.startsAt))
    .select('id')) as Array<{ id: number }>;
  const order = await shuffledOrder(
    c.queueSeed!,
    early.map((r) => Number(r.id)),
  );
  for (const [i, id] of order.entries())
    await trx('launchQueueEntries')
      .where({ id })
      .update({ position: i + 1 });
  await trx('competitions').where({ id: c.id }).update({ queueShuffledAt: now, queueLastAdmitAt: now });
}

/** Late joiners (at or after the opening) go to the back, in arrival (id) order. */
async function placeLateJoiners(trx: Knex.Transaction, competitionId: number) {
  const late = (await trx('launchQueueEntries')
    .where({ competitionId })
    .whereNull('position')
    .orderBy('id')
    .select('id')) as Array<{ id: number }>;
  if (!late.length) return;
  const [top] = (await trx('launchQueueEntries')
    .where({ competitionId })
    .max({ last: 'position' })) as Array<{ last: number | null }>;
  let next = Number(top?.last ?? 0);
  for (const { id } of late) await trx('launchQueueEntries').where({ id }).update({ position: ++next });
}

/** One queue's tick; answers whether it still runs. */
async function tickQueue(
  uow: UnitOfWork,
  id: number,
  settings: QueueSettings,
  now: number,
): Promise<boolean> {
  const { trx } = uow;
  const c = (await lockRows(trx, 'competition', Competition.query(trx).findById(id))) as
    | Competition
    | undefined;
  if (!c?.launchQueue || c.queueDrainedAt !== null || c.status !== 'active') return false;
  if (c.startsAt === null || Number(c.startsAt) > now) return false;
  if (c.queueShuffledAt === null) await shuffle(trx, c, now);
  await placeLateJoiners(trx, id);
  const rate = c.queueAdmitPerSecond ?? settings.admitPerSecond;
  const since = c.queueShuffledAt === null ? now : Number(c.queueLastAdmitAt ?? now);
  const due = Math.floor((rate * Math.max(0, now - since)) / 1000);
  if (due > 0) {
    const next = (await waitingQuery(trx, id).limit(due).select('*')).map(rowOf);
    const expiresAt = now + settings.admissionMinutes * 60_000;
    if (next.length)
      await trx('launchQueueEntries')
        .whereIn(
          'id',
          next.map((e) => e.id),
        )
        .update({ admittedAt: now, admissionExpiresAt: expiresAt });
    for (const e of next) uow.emit('queue.admitted', { competitionId: id, owner: ownerRefOf(e), expiresAt });
    // The fraction carries to the next tick; with nobody left to let in, the clock restarts now.
    const moved = next.length < due ? now : since + Math.floor((due * 1000) / rate);
    await trx('competitions').where({ id }).update({ queueLastAdmitAt: moved });
  }
  const waiting = (await waitingQuery(trx, id).select('*')).map(rowOf);
  if (!waiting.length) {
    // Nobody waits: open to all (holds stop asking the queue).
    await trx('competitions').where({ id }).update({ queueDrainedAt: now });
  }
  uow.emit('queue.positions', {
    competitionId: id,
    places: waiting.map((e, i) => ({
      owner: ownerRefOf(e),
      position: i + 1,
      ahead: i,
      etaSeconds: etaSecondsOf(i, rate),
    })),
  });
  uow.emit('queue.stats', { view: await adminQueueView(trx, id, settings, now) });
  return waiting.length > 0;
}

/** Every launch queue due a tick: opened (startsAt reached), not drained. Tests pass their `now`. */
export async function runLaunchQueues(deps: QueueJobDeps, now = Date.now()): Promise<number[]> {
  const due = (await deps
    .db('competitions')
    .where({ launchQueue: true, status: 'active' })
    .whereNull('queueDrainedAt')
    .whereNotNull('startsAt')
    .where('startsAt', '<=', now)
    .select('id')) as Array<{ id: number }>;
  const ran: number[] = [];
  for (const { id } of due) {
    await inUnitOfWork(deps, (uow) => tickQueue(uow, Number(id), deps.settings, now));
    ran.push(Number(id));
  }
  return ran;
}

/** The tick every `intervalMs` (the server: every second while sweeping is on; 0 = off). */
export function startLaunchQueueJob(
  deps: QueueJobDeps & { logger: { error: (o: object, m: string) => void } },
  intervalMs: number,
): () => Promise<void> {
  return startPeriodicJob(intervalMs, async () => {
    try {
      await runLaunchQueues(deps);
    } catch (err) {
      deps.logger.error({ err }, 'the launch queue tick failed');
    }
  });
}
