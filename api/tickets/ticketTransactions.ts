import type { Knex } from 'knex';
import { bumpCounter, isRetryableTxError } from '../../db/dialect';
import { RetryTransaction } from '../platform/unitOfWork';

// The transaction plumbing of every ticket change: retries and the per-competition version.

/** Lucky Dip picks collided with a concurrent hold: retry with a fresh snapshot. */
export class PickCollision extends RetryTransaction {}

/** Counters for operators and benchmarks: how often a transaction had to be run again. */
export const reservationStats = { deadlockRetries: 0, pickCollisionRetries: 0 };

/** Runs fn in a transaction, retrying the whole transaction on deadlock or a Lucky Dip collision. */
export async function inTransaction<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(fn);
    } catch (err) {
      const retryable = isRetryableTxError(err) || err instanceof PickCollision;
      if (!retryable || attempt >= 8) throw err;
      if (err instanceof PickCollision) reservationStats.pickCollisionRetries++;
      else reservationStats.deadlockRetries++;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 8 * attempt));
    }
  }
}

/** Increments and returns the competition's version; called last in a transaction (bumpCounter). */
export const bumpVersion = (trx: Knex.Transaction, competitionId: number): Promise<number> =>
  bumpCounter(trx, 'competition_versions', 'competition_id', competitionId, 'version');
