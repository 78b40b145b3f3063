import type { Knex } from 'knex';
import { bumpCounter, counterBump } from '../../db/counters';

/**
 * Increments and returns the competition's version. Every change to a competition's numbers or
 * fields bumps it, last in its transaction: the row stays locked only until COMMIT, which orders
 * the changes of one competition, and watchers use it to spot a missed event.
 */
export const bumpVersion = (trx: Knex.Transaction, competitionId: number): Promise<number> =>
  bumpCounter(trx, 'competition_versions', 'competition_id', competitionId, 'version');

/** bumpVersion as a batch statement, to run last in its transaction. */
export const versionBump = (trx: Knex.Transaction, competitionId: number) =>
  counterBump(trx, 'competition_versions', 'competition_id', competitionId, 'version');
