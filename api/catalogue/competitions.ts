import type { Knex } from 'knex';
import { deriveCategory } from '../../contract/categories';
import type { PublicCompetition } from '../../contract/competitions';
import { Competition } from '../../db/models';
import { notFound } from '../platform/errors';
import { defaultCap } from '../tickets/holdChecks';
import { type EntryRow, presentCompetition } from './presenter';

// Statuses a visitor may open by link. Active ones are listed; ended ones stay viewable so
// entrants can find their competition and its result, but are not listed. Archived are hidden.
const VIEWABLE = ['active', 'ended', 'cancelled'] as const;

/** Active competitions, live-draw first then auto-win, newest first; optionally one category. */
export async function listPublicCompetitions(db: Knex, category?: string): Promise<Competition[]> {
  const rows = await Competition.query(db)
    .where('status', 'active')
    .orderBy([
      { column: 'autoWin', order: 'asc' },
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  if (!category) return rows;
  const wanted = category.trim().toLowerCase();
  return wanted === 'all' ? rows : rows.filter((c) => deriveCategory(c) === wanted);
}

/** A competition a visitor may open; `drafts`: an admin's preview opens drafts too. */
export async function findViewableCompetition(
  db: Knex,
  id: number,
  { drafts = false }: { drafts?: boolean } = {},
): Promise<Competition> {
  const c = await Competition.query(db)
    .findById(id)
    .whereIn('status', drafts ? [...VIEWABLE, 'draft'] : VIEWABLE);
  if (!c) throw notFound('Competition not found');
  return c;
}

/**
 * Sold numbers with their owners' name fields, numbers ascending (presentEntries groups them); a
 * postal entry without an account brings the postcard's name.
 */
export async function listEntries(
  db: Knex,
  competitionId: number,
  { drafts = false }: { drafts?: boolean } = {},
): Promise<EntryRow[]> {
  await findViewableCompetition(db, competitionId, { drafts });
  return db('tickets as t')
    .leftJoin('users as u', 'u.id', 't.userId')
    .leftJoin('postalEntries as p', 'p.orderId', 't.orderId')
    .where({ 't.competitionId': competitionId, 't.status': 'sold' })
    .select(
      't.number',
      't.userId',
      'u.firstName',
      'u.lastName',
      'u.username',
      'u.deletedAt',
      'u.publicNameMode',
      'u.nickname',
      'p.name as postalName',
      'p.emailKey as postalKey',
    )
    .orderBy('t.number', 'asc');
}

/**
 * The open competitions (of `category`) as GET /api/competitions answers them, and as the home
 * page the server renders shows them (api/pages/pageSeed.ts).
 */
export async function publicCompetitionList(db: Knex, category?: string): Promise<PublicCompetition[]> {
  const cap = await defaultCap(db);
  return (await listPublicCompetitions(db, category)).map((c) => presentCompetition(c, cap));
}
