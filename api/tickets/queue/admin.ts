import type { Knex } from 'knex';
import type { AdminQueueView, QueueOrderView } from '../../../contract/launchQueue';
import { lockRows } from '../../../db/locks';
import { Competition } from '../../../db/models';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict, notFound } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import type { QueueJobDeps, QueueSettings } from './places';

const HOLDS_WINDOW_MS = 5000;

/** The queue's numbers as the admin sees them live. */
export async function adminQueueView(
  db: Knex,
  competitionId: number,
  settings: QueueSettings,
  now: number,
): Promise<AdminQueueView> {
  const c = (await Competition.query(db).findById(competitionId)) as Competition | undefined;
  if (!c?.launchQueue) throw notFound('This competition has no launch queue.');
  const counts = (await db('launchQueueEntries')
    .where({ competitionId })
    .select(db.raw('CASE WHEN admitted_at IS NULL THEN 0 ELSE 1 END AS admitted'))
    .count({ n: '*' })
    .groupByRaw('CASE WHEN admitted_at IS NULL THEN 0 ELSE 1 END')) as Array<{ admitted: number; n: number }>;
  const countOf = (admitted: number) => Number(counts.find((r) => Number(r.admitted) === admitted)?.n ?? 0);
  const [held] = (await db('cartItems')
    .where({ competitionId })
    .where('reservedAt', '>', now - HOLDS_WINDOW_MS)
    .count({ holds: '*' })) as Array<{ holds: number | string }>;
  return {
    competitionId,
    waiting: countOf(0),
    admitted: countOf(1),
    admitPerSecond: c.queueAdmitPerSecond ?? settings.admitPerSecond,
    holdsPerSecond: Number(held?.holds ?? 0) / (HOLDS_WINDOW_MS / 1000),
  };
}

/** The admin raises (or lowers) the rate live; audited, and the admins see it at once. */
export async function setAdmitRate(
  deps: QueueJobDeps,
  actor: Actor,
  competitionId: number,
  admitPerSecond: number,
  now: number,
): Promise<AdminQueueView> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const c = (await lockRows(trx, 'competition', Competition.query(trx).findById(competitionId))) as
      | Competition
      | undefined;
    if (!c?.launchQueue) throw notFound('This competition has no launch queue.');
    const before = c.queueAdmitPerSecond ?? deps.settings.admitPerSecond;
    await trx('competitions').where({ id: competitionId }).update({ queueAdmitPerSecond: admitPerSecond });
    const target = { type: 'competition', id: competitionId } as const;
    await writeAudit(
      trx,
      actor,
      'competition.queue_rate',
      target,
      { admitPerSecond: before },
      { admitPerSecond },
      now,
    );
    const view = await adminQueueView(trx, competitionId, deps.settings, now);
    uow.emit('queue.stats', { view });
    return view;
  });
}

/** After the shuffle: the seed and every position, so anyone can recompute the order. */
export async function queueOrder(db: Knex, competitionId: number): Promise<QueueOrderView> {
  const c = (await Competition.query(db).findById(competitionId)) as Competition | undefined;
  if (!c?.launchQueue || c.status === 'draft' || c.status === 'archived')
    throw notFound('This competition has no launch queue.');
  if (c.queueShuffledAt === null)
    throw conflict('The queue is shuffled at the opening; its seed is revealed then.');
  const rows = (await db('launchQueueEntries')
    .where({ competitionId })
    .whereNotNull('position')
    .orderBy('position')
    .select('id', 'joinedAt', 'position')) as Array<{ id: number; joinedAt: number; position: number }>;
  return {
    seed: c.queueSeed!,
    commitment: c.queueCommitment!,
    entries: rows.map((r) => ({
      entryId: Number(r.id),
      joinedBeforeOpening: Number(r.joinedAt) < Number(c.startsAt),
      position: Number(r.position),
    })),
  };
}
