import type { Knex } from 'knex';
import { notFound } from '../platform/errors';
import type { DrawRecord } from './presenter';
import { joinPostalWinner, POSTAL_WINNER_COLUMNS, WINNER_ACCOUNT_COLUMNS, withPrizes } from './prizes';

// Reading draws: one competition's, the newest ones, and the entries a draw was made from.

const drawRecords = (db: Knex) =>
  joinPostalWinner(
    db('draws as d')
      .join('competitions as c', 'c.id', 'd.competitionId')
      .leftJoin('users as u', 'u.id', 'd.winnerUserId'),
    'd',
  ).select(
    'd.competitionId',
    'd.version',
    'd.seed',
    'd.entriesHash',
    'd.winningNumber',
    'd.beaconRound',
    'd.beaconRandomness',
    'd.winnerUserId',
    'd.winnerOrderId',
    'd.drawnAt',
    'd.drawnBy',
    'd.winnerNotifiedAt',
    'd.prizeDeliveredAt',
    'd.winnerTown',
    'c.title',
    'c.image',
    'c.mainPrizes',
    'c.prizeValuePence',
    ...WINNER_ACCOUNT_COLUMNS,
    ...POSTAL_WINNER_COLUMNS,
  );

export async function loadDrawRecord(db: Knex, competitionId: number): Promise<DrawRecord | undefined> {
  const row = await drawRecords(db).where('d.competitionId', competitionId).first();
  return row ? (await withPrizes(db, [row]))[0] : undefined;
}

export async function listDrawRecords(db: Knex, limit = 200): Promise<DrawRecord[]> {
  return withPrizes(
    db,
    await drawRecords(db)
      .whereNot('c.status', 'archived')
      .orderBy([
        { column: 'd.drawnAt', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(limit),
  );
}

/** The sold numbers the draw was made from (ascending), for anyone to recompute it. */
export async function drawEntries(db: Knex, competitionId: number) {
  const row = (await db('draws as d')
    .join('competitions as c', 'c.id', 'd.competitionId')
    .where('d.competitionId', competitionId)
    .whereNot('c.status', 'archived')
    .first('d.entriesHash', 'd.entries')) as { entriesHash: string; entries: string } | undefined;
  if (!row) throw notFound('This competition has not been drawn yet.');
  return { competitionId, entriesHash: row.entriesHash, numbers: JSON.parse(row.entries) as number[] };
}
