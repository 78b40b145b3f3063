import type { Logger } from 'pino';
import { engineOfKnex } from '../../db/dialect';
import { CartItem } from '../../db/models';
import { startPeriodicJob } from '../platform/jobs/periodicJob';
import { purgeExpiredSessions } from '../platform/sessions';
import { inUnitOfWork } from '../platform/unitOfWork';
import { ownerOf } from './cartQueries';
import { cartChanged, cartKeyOf } from './cartRevision';
import { deleteItems, emitReleases, versionReleases } from './holdRows';
import type { ReservationDeps } from './reservations';

/**
 * Releases expired holds: deletes expired cart items (and their holds) one competition at a time
 * and publishes each release once. Safe with several processes sweeping at once: rows are locked
 * and re-checked inside the transaction, so a second sweeper finds nothing left to release.
 */
export async function sweepExpired(deps: ReservationDeps, now = Date.now(), batch = 500): Promise<number> {
  const due: Array<{ id: number; competitionId: number }> = await deps
    .db('cartItems')
    .where('expiresAt', '<=', now)
    .orderBy('expiresAt')
    .limit(batch)
    .select('id', 'competitionId');
  const byCompetition = new Map<number, number[]>();
  for (const d of due)
    byCompetition.set(d.competitionId, [...(byCompetition.get(d.competitionId) ?? []), d.id]);
  let releasedCount = 0;
  for (const ids of byCompetition.values()) {
    releasedCount += await inUnitOfWork(deps, async (uow) => {
      const q = CartItem.query(uow.trx).whereIn('id', ids).where('expiresAt', '<=', now);
      if (engineOfKnex(uow.trx) === 'mysql') q.forUpdate();
      const items = (await q) as CartItem[];
      const releases = await versionReleases(uow.trx, await deleteItems(uow.trx, items, 'expired'));
      emitReleases(uow, releases);
      const byOwner = new Map<string, CartItem[]>();
      for (const i of items) {
        const key = cartKeyOf(ownerOf(i));
        byOwner.set(key, [...(byOwner.get(key) ?? []), i]);
      }
      for (const group of byOwner.values()) {
        const owner = ownerOf(group[0]!);
        uow.emit('cart.expired', { owner, itemIds: group.map((i) => i.id) });
        await cartChanged(uow, owner);
      }
      return releases.reduce((sum, r) => sum + r.numbers.length, 0);
    });
  }
  return releasedCount;
}

/** A once-a-minute clean-up of rows past their use: returns how many it deleted. */
export interface Purge {
  name: string;
  run: (db: ReservationDeps['db'], now: number) => Promise<number>;
}

/**
 * Releases expired holds every `intervalMs` and, once a minute or so, deletes expired sessions and
 * runs the other `purges` (rows other modules keep only for a while, such as skill attempts).
 * Runs in every process; all are safe to run concurrently (each release is published once, by
 * whichever process deleted it). The returned stop waits for a sweep in progress, so the database
 * can be closed after it.
 */
export function startSweeper(
  deps: ReservationDeps,
  logger: Logger,
  intervalMs: number,
  purges: Purge[] = [],
): () => Promise<void> {
  let lastSessionPurge = 0;
  return startPeriodicJob(intervalMs, async () => {
    try {
      const released = await sweepExpired(deps);
      if (released) logger.info({ released }, 'released expired holds');
      if (Date.now() - lastSessionPurge >= 60_000) {
        lastSessionPurge = Date.now();
        const purged = await purgeExpiredSessions(deps.db);
        if (purged) logger.info({ purged }, 'deleted expired sessions');
        for (const purge of purges) {
          const deleted = await purge.run(deps.db, Date.now());
          if (deleted) logger.info({ deleted }, `deleted ${purge.name}`);
        }
      }
    } catch (err) {
      logger.error({ err }, 'sweeping expired holds failed');
    }
  });
}
