import type { Knex } from 'knex';
import { bumpCounterNow, counterBumpForBatch } from '../../db/counters';

/**
 * Increments and returns the competition's version, now (one statement of its own). Every change to a competition's numbers or
 * fields bumps it, last in its transaction: the row stays locked only until COMMIT, which orders
 * the changes of one competition, and watchers use it to spot a missed event.
 */
export const bumpVersionNow = (trx: Knex.Transaction, competitionId: number): Promise<number> =>
  bumpCounterNow(trx, 'competition_versions', 'competition_id', competitionId, 'version');

/** The same bump as one statement of a batch (db/statementBatch.ts), to run last in its transaction. */
export const versionBumpForBatch = (trx: Knex.Transaction, competitionId: number) =>
  counterBumpForBatch(trx, 'competition_versions', 'competition_id', competitionId, 'version');
