import type { Knex } from 'knex';
import { AGE_CHECK_BEFORE_DELIVERY } from '../../contract/age';
import { ERROR_CODES } from '../../contract/errors';
import { SITE_SETTINGS } from '../../contract/siteSettings';
import { lockRows } from '../../db/locks';
import { readSiteSetting } from '../catalogue/settings';
import { type Actor, writeAudit } from '../platform/auditLog';
import { conflict, notFound } from '../platform/errors';
import { listDrawRecords, loadDrawRecord } from './drawRecords';
import type { DrawRecord, PrizeRecord } from './presenter';
import { updatePrizeDelivered } from './prizes';

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
  const pending = async (table: 'draws' | 'drawPrizes') =>
    (await lockRows(
      trx,
      'prizeRecord',
      trx(`${table} as d`)
        .join('competitions as c', 'c.id', 'd.competitionId')
        .where('d.winnerUserId', userId)
        .whereNull('d.prizeDeliveredAt')
        .orderBy('d.competitionId')
        .select('d.competitionId', 'c.title'),
    )) as Array<{ competitionId: number; title: string }>;
  // Every prize counts (docs/draws.md "Several prizes"); one line per competition.
  const rows = [...(await pending('draws')), ...(await pending('drawPrizes'))];
  const byId = new Map(rows.map((r) => [Number(r.competitionId), r.title]));
  return [...byId].sort(([a], [b]) => a - b).map(([competitionId, title]) => ({ competitionId, title }));
}

/**
 * A prize worth more than the site's threshold, or of no stated value, goes only to a winner whose
 * age an admin has verified (docs/product.md#age-checks), prize by prize: 409 otherwise.
 */
async function assertWinnerAgeChecked(trx: Knex.Transaction, prize: PrizeRecord) {
  if (prize.ageVerifiedAt !== null) return;
  const { ageCheckPrizeThresholdPence } = await readSiteSetting(trx, SITE_SETTINGS.compliance);
  if (prize.cashValuePence === null || prize.cashValuePence > ageCheckPrizeThresholdPence)
    throw conflict(AGE_CHECK_BEFORE_DELIVERY, undefined, ERROR_CODES.ageVerificationRequired);
}

/**
 * Marks one prize of a drawn competition delivered (or not; position 1 = the 1st prize), audit-logged
 * on the competition. 404 when there is no such drawn prize.
 */
export async function setPrizeDelivered(
  db: Knex,
  actor: Actor,
  competitionId: number,
  delivered: boolean,
  now = Date.now(),
  position = 1,
): Promise<DrawRecord> {
  await db.transaction(async (trx) => {
    const record = await loadDrawRecord(trx, competitionId);
    if (!record) throw notFound('No winner has been drawn for this competition.');
    const prize = record.prizes.find((p) => p.position === position);
    if (!prize) throw notFound(`This competition has no drawn prize number ${position}.`);
    const at = delivered ? (prize.prizeDeliveredAt ?? now) : null;
    if (at === prize.prizeDeliveredAt) return;
    if (delivered) await assertWinnerAgeChecked(trx, prize);
    await updatePrizeDelivered(trx, competitionId, position, at);
    await writeAudit(
      trx,
      actor,
      delivered ? 'competition.prize_delivered' : 'competition.prize_undelivered',
      { type: 'competition', id: competitionId },
      {
        prizeDeliveredAt: prize.prizeDeliveredAt,
        winningNumber: prize.winningNumber,
        ...(position > 1 || record.prizes.length > 1 ? { position, prize: prize.title } : {}),
      },
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
