import type { Knex } from 'knex';
import { deriveCategory } from '../../contract/categories';
import { Competition } from '../../db/models';
import { notFound } from '../platform/errors';
import { liveTickets } from '../tickets/liveTickets';
import type { EntryRow } from './presenter';

// Statuses a visitor may open by link. Active ones are listed; ended ones stay viewable so
// entrants can find their competition and its result, but are not listed. Archived are hidden.
const VIEWABLE = ['active', 'ended'] as const;

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

export async function findViewableCompetition(db: Knex, id: number): Promise<Competition> {
  const c = await Competition.query(db).findById(id).whereIn('status', VIEWABLE);
  if (!c) throw notFound('Competition not found');
  return c;
}

/** Sold numbers with their owners' name fields, numbers ascending (presentEntries groups them). */
export async function listEntries(db: Knex, competitionId: number): Promise<EntryRow[]> {
  await findViewableCompetition(db, competitionId);
  return db('tickets as t')
    .leftJoin('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': competitionId, 't.status': 'sold' })
    .select('t.number', 't.userId', 'u.firstName', 'u.lastName', 'u.username', 'u.deletedAt')
    .orderBy('t.number', 'asc');
}

/** Sold and live-held numbers with their status. */
const liveNumbers = (
  db: Knex,
  competitionId: number,
  now: number,
): Promise<Array<{ number: number; status: 'sold' | 'reserved' }>> =>
  liveTickets(db, competitionId, now).select('number', 'status');

export async function listReservedNumbers(
  db: Knex,
  competitionId: number,
  now = Date.now(),
): Promise<number[]> {
  await findViewableCompetition(db, competitionId);
  const rows = await liveNumbers(db, competitionId, now);
  return rows
    .filter((r) => r.status === 'reserved')
    .map((r) => r.number)
    .sort((a, b) => a - b);
}

export async function listAvailableNumbers(
  db: Knex,
  competitionId: number,
  now = Date.now(),
): Promise<number[]> {
  const competition = await findViewableCompetition(db, competitionId);
  if (competition.status !== 'active') return [];
  const taken = new Uint8Array(competition.totalTickets + 1);
  for (const r of await liveNumbers(db, competitionId, now)) taken[r.number] = 1;
  const available: number[] = [];
  for (let n = 1; n <= competition.totalTickets; n++) if (!taken[n]) available.push(n);
  return available;
}
