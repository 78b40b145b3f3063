import type { Knex } from 'knex';
import { engineOfKnex, isRetryableTxError } from '../../db/dialect';

// The transaction plumbing of every ticket change: retries and the per-competition version.

/** Lucky Dip picks collided with a concurrent hold: retry with a fresh snapshot. */
export class PickCollision extends Error {}

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

/**
 * Increments and returns the competition's version. Called last in a transaction: the version
 * row stays locked only until COMMIT, which orders the changes of one competition.
 */
export async function bumpVersion(trx: Knex.Transaction, competitionId: number): Promise<number> {
  if (engineOfKnex(trx) === 'mysql') {
    // LAST_INSERT_ID(expr) makes the server return the new version as this statement's insert
    // id, so one round trip both bumps and reads it.
    const [result] = (await trx.raw(
      'INSERT INTO competition_versions (competition_id, version) VALUES (?, 1) ON DUPLICATE KEY UPDATE version = LAST_INSERT_ID(version + 1)',
      [competitionId],
    )) as [{ affectedRows: number; insertId: number }];
    return result.affectedRows === 1 ? 1 : Number(result.insertId);
  }
  const rows = (await trx.raw(
    'INSERT INTO competition_versions (competition_id, version) VALUES (?, 1) ON CONFLICT (competition_id) DO UPDATE SET version = version + 1 RETURNING version',
    [competitionId],
  )) as Array<{ version: number }>;
  return Number(rows[0]!.version);
}
