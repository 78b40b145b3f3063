import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import type { WatchChangeView, WatchedCompetitionView } from '../../../contract/marketing';
import { isUniqueViolation } from '../../../db/dialect';
import { findViewableCompetition } from '../../catalogue/competitions';

// The customer's watchlist (docs/product.md#watching-a-competition): the heart on a competition's
// card and page. Watching one counts it in for its ending-soon e-mail (with marketing consent).

/** Watches a competition a visitor can open (404 otherwise); watching it again changes nothing. */
export async function watch(
  db: Knex,
  userId: number,
  competitionId: number,
  now = Date.now(),
): Promise<WatchChangeView> {
  await findViewableCompetition(db, competitionId);
  try {
    const exists = await db('watchlist').where({ userId, competitionId }).first('userId');
    if (!exists) await db('watchlist').insert({ userId, competitionId, createdAt: now });
  } catch (err) {
    // Two requests at once: the other one's row stands.
    if (!isUniqueViolation(err)) throw err;
  }
  return { competitionId, watching: true };
}

/** Stops watching; not watching it already is no error. */
export async function unwatch(db: Knex, userId: number, competitionId: number): Promise<WatchChangeView> {
  await db('watchlist').where({ userId, competitionId }).delete();
  return { competitionId, watching: false };
}

/** What the customer watches, closing soonest first (archived competitions left out). */
export async function listWatched(db: Knex, userId: number): Promise<WatchedCompetitionView[]> {
  const rows = (await db('watchlist as w')
    .join('competitions as c', 'c.id', 'w.competitionId')
    .where('w.userId', userId)
    .whereIn('c.status', ['active', 'ended'])
    .orderBy([{ column: 'c.endDate' }, { column: 'c.id' }])
    .select('c.id', 'c.title', 'c.image', 'c.endDate', 'c.status', 'w.createdAt')) as Array<{
    id: number;
    title: string;
    image: string | null;
    endDate: number;
    status: string;
    createdAt: number;
  }>;
  return rows.map((r) => ({
    competitionId: Number(r.id),
    title: r.title,
    image: r.image ?? '',
    endDate: iso(Number(r.endDate)),
    status: r.status,
    watchedAt: iso(Number(r.createdAt)),
  }));
}
