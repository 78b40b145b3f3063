import type { Knex } from 'knex';
import { liveTickets } from '../tickets/liveTickets';
import { findViewableCompetition } from './competitions';

// The number picker's lists: which numbers of a viewable competition are held or free right now.

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
