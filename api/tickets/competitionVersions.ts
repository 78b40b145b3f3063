import type { Knex } from 'knex';
import { bumpCounterNow, counterBumpForBatch } from '../../db/counters';
import { Competition } from '../../db/models';
import type { UnitOfWork } from '../platform/unitOfWork';
import type { ReturnedNumbers } from './selling/returnSoldNumbers';
import type { SoldNumbers } from './selling/sellNumbers';

/**
 * Increments and returns the competition's version, now (one statement of its own). Every change
 * to a competition's numbers or fields bumps it, last in its transaction: the row stays locked
 * only until COMMIT, which orders the changes of one competition, and watchers use it to spot a
 * missed event.
 */
export const bumpVersionNow = (trx: Knex.Transaction, competitionId: number): Promise<number> =>
  bumpCounterNow(trx, 'competition_versions', 'competition_id', competitionId, 'version');

/** The same bump as one statement of a batch (db/statementBatch.ts), to run last in its transaction. */
export const versionBumpForBatch = (trx: Knex.Transaction, competitionId: number) =>
  counterBumpForBatch(trx, 'competition_versions', 'competition_id', competitionId, 'version');

/** The versions a sale or return took: `closedVersion` when the sale closed the competition. */
export interface TicketChangeVersions {
  version: number;
  closedVersion?: number;
}

/**
 * Last in a sale's or a return's transaction: bumps the competition's version and records the
 * change's event at it (`tickets.purchased` or `tickets.released`, published after COMMIT). A sale
 * that closed an auto-win competition is a second change: `competition.updated` at the next version.
 */
export async function recordTicketChange(
  uow: UnitOfWork,
  change: SoldNumbers | ReturnedNumbers,
): Promise<TicketChangeVersions> {
  const { trx } = uow;
  const { competitionId, numbers } = change;
  const version = await bumpVersionNow(trx, competitionId);
  if (change.kind === 'returned') {
    uow.emit('tickets.released', { competitionId, version, numbers });
    return { version };
  }
  const { ticketsSold } = (await trx('competitions').where({ id: competitionId }).first('ticketsSold')) as {
    ticketsSold: number;
  };
  uow.emit('tickets.purchased', { competitionId, version, numbers, ticketsSold: Number(ticketsSold) });
  if (!change.closed) return { version };
  const closedVersion = await bumpVersionNow(trx, competitionId);
  const competition = (await Competition.query(trx).findById(competitionId)) as Competition;
  uow.emit('competition.updated', { competition, version: closedVersion });
  return { version, closedVersion };
}
