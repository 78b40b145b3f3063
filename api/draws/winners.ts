import type { Knex } from 'knex';
import { ERROR_CODES } from '../../contract/errors';
import { lockForUpdate } from '../../db/dialect';
import { getComplianceSettings } from '../catalogue/settings';
import { type Actor, writeAudit } from '../platform/auditLog';
import { conflict, notFound } from '../platform/errors';
import { listDrawRecords, loadDrawRecord } from './draws';
import type { DrawRecord } from './presenter';

// Past winners: the public list (/winners) and the admin's, where a prize is marked delivered.

export const listWinners = (db: Knex): Promise<DrawRecord[]> => listDrawRecords(db);

export const listAdminWinners = (db: Knex): Promise<DrawRecord[]> => listDrawRecords(db, 1000);

/**
 * The competitions this user won whose prize is not yet delivered, locked (an account with one
 * cannot be deleted, and marking it delivered waits for the deletion to commit or roll back).
 */
export async function undeliveredPrizesOf(
  trx: Knex.Transaction,
  userId: number,
): Promise<Array<{ competitionId: number; title: string }>> {
  const rows = (await lockForUpdate(
    trx,
    trx('draws as d')
      .join('competitions as c', 'c.id', 'd.competitionId')
      .where('d.winnerUserId', userId)
      .whereNull('d.prizeDeliveredAt')
      .orderBy('d.competitionId')
      .select('d.competitionId', 'c.title'),
  )) as Array<{ competitionId: number; title: string }>;
  return rows.map((r) => ({ competitionId: Number(r.competitionId), title: r.title }));
}

export const AGE_CHECK_BEFORE_DELIVERY =
  "The winner's age must be verified before this prize is marked delivered. Check an identity document, then mark the account age-verified in Users.";

/**
 * A prize worth more than the site's threshold, or of no stated value, goes only to a winner whose
 * age an admin has verified (docs/product.md#age-checks): 409 otherwise.
 */
async function assertWinnerAgeChecked(trx: Knex.Transaction, competitionId: number) {
  const row = (await trx('draws as d')
    .join('competitions as c', 'c.id', 'd.competitionId')
    .leftJoin('users as u', 'u.id', 'd.winnerUserId')
    .where('d.competitionId', competitionId)
    .first('c.prizeValuePence', 'u.ageVerifiedAt')) as
    | { prizeValuePence: number | null; ageVerifiedAt: number | null }
    | undefined;
  if (!row || row.ageVerifiedAt !== null) return;
  const { ageCheckPrizeThresholdPence } = await getComplianceSettings(trx);
  const value = row.prizeValuePence === null ? null : Number(row.prizeValuePence);
  if (value === null || value > ageCheckPrizeThresholdPence)
    throw conflict(AGE_CHECK_BEFORE_DELIVERY, undefined, ERROR_CODES.ageVerificationRequired);
}

/** Marks the prize of a drawn competition delivered (or not), audit-logged on the competition. */
export async function setPrizeDelivered(
  db: Knex,
  actor: Actor,
  competitionId: number,
  delivered: boolean,
  now = Date.now(),
): Promise<DrawRecord> {
  await db.transaction(async (trx) => {
    const before = await loadDrawRecord(trx, competitionId);
    if (!before) throw notFound('No winner has been drawn for this competition.');
    const at = delivered ? (before.prizeDeliveredAt ?? now) : null;
    if (at === before.prizeDeliveredAt) return;
    if (delivered) await assertWinnerAgeChecked(trx, competitionId);
    await trx('draws').where({ competitionId }).update({ prizeDeliveredAt: at });
    await writeAudit(
      trx,
      actor,
      delivered ? 'competition.prize_delivered' : 'competition.prize_undelivered',
      { type: 'competition', id: competitionId },
      { prizeDeliveredAt: before.prizeDeliveredAt, winningNumber: before.winningNumber },
      { prizeDeliveredAt: at },
      now,
    );
  });
  return (await loadDrawRecord(db, competitionId))!;
}

/** Records the winner's town, published with their name on the competition page (null clears it). */
export async function setWinnerTown(
  db: Knex,
  actor: Actor,
  competitionId: number,
  town: string | null,
  now = Date.now(),
): Promise<DrawRecord> {
  await db.transaction(async (trx) => {
    const before = await loadDrawRecord(trx, competitionId);
    if (!before) throw notFound('No winner has been drawn for this competition.');
    if (before.winnerTown === town) return;
    await trx('draws').where({ competitionId }).update({ winnerTown: town });
    await writeAudit(
      trx,
      actor,
      'competition.winner_town',
      { type: 'competition', id: competitionId },
      { winnerTown: before.winnerTown },
      { winnerTown: town },
      now,
    );
  });
  return (await loadDrawRecord(db, competitionId))!;
}
