import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import type { AdminWinner } from '../../../contract/draw';
import type { AdminWinnerStory, WinnerStory, WinnerStoryUpdate } from '../../../contract/winnerStories';
import { isUniqueViolation } from '../../../db/dialect';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { conflict, notFound } from '../../platform/errors';
import { loadDrawRecord } from '../drawRecords';
import { type DrawRecord, winnerNameOf } from '../presenter';

// Winner stories (docs/product.md#public-names-and-winner-stories): per main prize won, a photo
// and a quote the admin adds, with the "winner agreed to publicity" tick recorded (who, when).
// Nothing is stored without the tick (contract WinnerStoryUpdateSchema: 400), and /winners
// publishes only ticked stories, naming the winner by their public-name choice.

interface StoryRow {
  competitionId: number;
  position: number;
  photo: string | null;
  quote: string | null;
  consentAt: number | null;
  consentBy: number | null;
  consentByName: string | null;
}

const keyOf = (competitionId: number, position: number) => `${competitionId}:${position}`;

async function storiesOf(db: Knex, competitionIds: number[]): Promise<Map<string, StoryRow>> {
  if (!competitionIds.length) return new Map();
  const rows = (await db('winnerStories').whereIn('competitionId', competitionIds)) as StoryRow[];
  return new Map(rows.map((r) => [keyOf(Number(r.competitionId), Number(r.position)), r]));
}

const presentAdminStory = (r: StoryRow | undefined): AdminWinnerStory | null =>
  r
    ? {
        photo: r.photo,
        quote: r.quote,
        consentAt: r.consentAt === null ? null : iso(Number(r.consentAt)),
        consentBy: r.consentByName,
      }
    : null;

/** The admin winner panel's winners with each prize's story (null: none). */
export async function withStories(db: Knex, winners: AdminWinner[]): Promise<AdminWinner[]> {
  const stories = await storiesOf(
    db,
    winners.map((w) => w.competitionId),
  );
  return winners.map((w) => ({
    ...w,
    prizes: w.prizes?.map((p) => ({
      ...p,
      story: presentAdminStory(stories.get(keyOf(w.competitionId, p.position))),
    })),
  }));
}

/** The published stories of these draws, by competition, 1st prize first (only with the tick). */
export async function publishedStories(db: Knex, records: DrawRecord[]): Promise<Map<number, WinnerStory[]>> {
  const stories = await storiesOf(
    db,
    records.map((r) => Number(r.competitionId)),
  );
  const published = new Map<number, WinnerStory[]>();
  for (const r of records) {
    const list = r.prizes.flatMap((p): WinnerStory[] => {
      const s = stories.get(keyOf(Number(r.competitionId), p.position));
      if (!s || s.consentAt === null || (!s.photo && !s.quote)) return [];
      return [
        {
          position: p.position,
          prizeTitle: p.title,
          winnerName: winnerNameOf(p),
          photo: s.photo,
          quote: s.quote,
        },
      ];
    });
    if (list.length) published.set(Number(r.competitionId), list);
  }
  return published;
}

/**
 * Saves one prize's story (PUT /api/admin/winners/:id/prizes/:position/story), audit-logged on the
 * competition: the tick's time and admin are recorded when it is first given and kept while it
 * stays; consent withdrawn (with nothing to publish) removes the story. 404 for a prize not drawn.
 */
export async function setWinnerStory(
  db: Knex,
  actor: Actor,
  competitionId: number,
  position: number,
  story: WinnerStoryUpdate,
  now = Date.now(),
): Promise<DrawRecord> {
  try {
    await db.transaction(async (trx) => {
      const record = await loadDrawRecord(trx, competitionId);
      if (!record) throw notFound('No winner has been drawn for this competition.');
      if (!record.prizes.some((p) => p.position === position))
        throw notFound(`This competition has no drawn prize number ${position}.`);
      const where = { competitionId, position };
      const before = (await trx('winnerStories').where(where).first()) as StoryRow | undefined;
      if (!story.consent) {
        if (before) await trx('winnerStories').where(where).delete();
      } else {
        const kept = before?.consentAt != null;
        const row = {
          photo: story.photo,
          quote: story.quote,
          consentAt: kept ? before!.consentAt : now,
          consentBy: kept ? before!.consentBy : actor.id,
          consentByName: kept ? before!.consentByName : actor.username,
          updatedAt: now,
        };
        if (before) await trx('winnerStories').where(where).update(row);
        else await trx('winnerStories').insert({ ...where, ...row });
      }
      const audited = (s: StoryRow | undefined) =>
        s ? { position, photo: s.photo, quote: s.quote, consentAt: s.consentAt } : { position };
      await writeAudit(
        trx,
        actor,
        'competition.winner_story',
        { type: 'competition', id: competitionId },
        audited(before),
        audited((await trx('winnerStories').where(where).first()) as StoryRow | undefined),
        now,
      );
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict('The story was saved by someone else at the same time: reload it.');
    throw err;
  }
  return (await loadDrawRecord(db, competitionId))!;
}

/** An erased account's stories go with it: a photo and a quote are the person's own (accountErasure). */
export async function eraseWinnerStoriesOf(trx: Knex.Transaction, userId: number): Promise<void> {
  const firsts = trx('draws').where({ winnerUserId: userId }).select('competitionId');
  await trx('winnerStories').where({ position: 1 }).whereIn('competitionId', firsts).delete();
  const further = (await trx('drawPrizes')
    .where({ winnerUserId: userId })
    .select('competitionId', 'position')) as Array<{
    competitionId: number;
    position: number;
  }>;
  for (const p of further)
    await trx('winnerStories').where({ competitionId: p.competitionId, position: p.position }).delete();
}
