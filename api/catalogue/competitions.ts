import type { Knex } from 'knex';
import type { CompetitionEntry, PublicCompetition } from '../../contract/competitions';
import { Competition } from '../../db/models';
import { loadPublicDraw } from '../draws/draws';
import { notFound } from '../platform/errors';
import { liveTickets } from '../tickets/liveTickets';
import { presentCompetition } from './presenter';

// Statuses a visitor may open by link. Active ones are listed; ended ones stay viewable so
// entrants can find their competition and its result, but are not listed. Archived are hidden.
const VIEWABLE = ['active', 'ended'] as const;

/** Active competitions, live-draw first then auto-win, newest first; optionally one category. */
export async function listPublicCompetitions(db: Knex, category?: string): Promise<PublicCompetition[]> {
  const rows = await Competition.query(db)
    .where('status', 'active')
    .orderBy([
      { column: 'autoWin', order: 'asc' },
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  const list = rows.map((c) => presentCompetition(c));
  if (!category) return list;
  const wanted = category.trim().toLowerCase();
  return wanted === 'all' ? list : list.filter((c) => c.category === wanted);
}

export async function findViewableCompetition(db: Knex, id: number): Promise<Competition> {
  const c = await Competition.query(db).findById(id).whereIn('status', VIEWABLE);
  if (!c) throw notFound('Competition not found');
  return c;
}

export async function getPublicCompetition(db: Knex, id: number): Promise<PublicCompetition> {
  const c = await findViewableCompetition(db, id);
  return presentCompetition(c, c.drawnAt ? await loadPublicDraw(db, id) : null);
}

interface OwnerRow {
  number: number;
  userId: number | null;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  deletedAt: number | null;
}

/**
 * How a ticket holder is shown in public: first name and last initial ("Sarah T."), never an email.
 * Without a first name the username is used unless it looks like an email address.
 */
export function publicOwnerName(
  o: Pick<OwnerRow, 'firstName' | 'lastName' | 'username' | 'deletedAt'>,
): string {
  if (o.deletedAt) return 'Former entrant';
  const first = o.firstName?.trim();
  if (first) {
    const initial = o.lastName?.trim().charAt(0).toUpperCase();
    return initial ? `${first} ${initial}.` : first;
  }
  const username = o.username?.trim();
  return username && !username.includes('@') ? username : 'Entrant';
}

/** Sold numbers grouped by owner: most tickets first, numbers ascending. */
export async function listEntries(db: Knex, competitionId: number): Promise<CompetitionEntry[]> {
  await findViewableCompetition(db, competitionId);
  const rows: OwnerRow[] = await db('tickets as t')
    .leftJoin('users as u', 'u.id', 't.userId')
    .where({ 't.competitionId': competitionId, 't.status': 'sold' })
    .select('t.number', 't.userId', 'u.firstName', 'u.lastName', 'u.username', 'u.deletedAt')
    .orderBy('t.number', 'asc');
  const byOwner = new Map<string, CompetitionEntry>();
  for (const row of rows) {
    const key = row.userId === null ? 'unknown' : String(row.userId);
    let entry = byOwner.get(key);
    if (!entry) {
      entry = { ownerName: publicOwnerName(row), ticketNumbers: [] };
      byOwner.set(key, entry);
    }
    entry.ticketNumbers.push(row.number);
  }
  return [...byOwner.values()].sort(
    (a, b) => b.ticketNumbers.length - a.ticketNumbers.length || a.ownerName.localeCompare(b.ownerName),
  );
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
