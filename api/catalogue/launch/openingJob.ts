import type { Knex } from 'knex';
import { Competition } from '../../../db/models';
import type { EventBus } from '../../platform/events';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { bumpVersionNow } from '../../tickets/competitionVersions';

/**
 * Opens the scheduled competitions whose `startsAt` has come: `opened_at` set by a conditional
 * UPDATE (with several processes only one opens each), then after COMMIT `competition.opened`
 * (every watcher's `competition:opened`, the 'new competition live' e-mail) and
 * `competition.updated`. Run by the closing job's timer; tests call it with their own `now`.
 */
export async function openDueCompetitions(
  deps: { db: Knex; events: EventBus },
  now = Date.now(),
): Promise<number[]> {
  const due = (await deps
    .db('competitions')
    .where('status', 'active')
    .whereNull('openedAt')
    .whereNotNull('startsAt')
    .where('startsAt', '<=', now)
    .select('id')) as Array<{ id: number }>;
  const opened: number[] = [];
  for (const { id } of due) {
    const openedNow = await inUnitOfWork(deps, async (uow) => {
      const changed = await uow
        .trx('competitions')
        .where({ id, status: 'active' })
        .whereNull('openedAt')
        .where('startsAt', '<=', now)
        .update({ openedAt: now, updatedAt: now });
      if (!changed) return false;
      const competition = (await Competition.query(uow.trx).findById(id))!;
      uow.emit('competition.opened', { competitionId: id, openedAt: now });
      uow.emit('competition.updated', { competition, version: await bumpVersionNow(uow.trx, id) });
      return true;
    });
    if (openedNow) opened.push(id);
  }
  return opened;
}
