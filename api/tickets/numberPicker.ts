import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ERROR_CODES } from '../../contract/errors';
import { conflict } from '../platform/errors';
import { takenAmong } from './holdChecks';
import { liveTickets } from './liveTickets';

// Which numbers are free, and a uniform pick among them (Lucky Dip, replacement numbers).

/** Where a pick asks which numbers are taken: some of them, or all of them. */
export interface TakenReader {
  among(numbers: number[]): Promise<Set<number>>;
  all(): Promise<Set<number>>;
}

const onlyAvailable = (n: number) => `Only ${n} tickets are available.`;

/** Numbers that are sold or held by a live hold. Expired holds are free, swept or not. */
export async function unavailableNumbers(db: Knex, competitionId: number, now: number): Promise<Set<number>> {
  const rows: Array<{ number: number }> = await liveTickets(db, competitionId, now).select('number');
  return new Set(rows.map((r) => r.number));
}

/** `count` distinct numbers chosen uniformly from the available ones. */
export function pickAvailable(total: number, taken: Set<number>, count: number): number[] {
  const free = total - taken.size;
  if (free < count)
    throw conflict(
      onlyAvailable(Math.max(0, free)),
      { available: Math.max(0, free) },
      ERROR_CODES.notEnoughTickets,
    );
  const picked = new Set<number>();
  if (taken.size < total / 2) {
    // Sparse: rejection sampling is uniform and fast.
    while (picked.size < count) {
      const n = randomInt(1, total + 1);
      if (!taken.has(n)) picked.add(n);
    }
  } else {
    // Dense: sample from the explicit list of free numbers (partial Fisher-Yates).
    const pool: number[] = [];
    for (let n = 1; n <= total; n++) if (!taken.has(n)) pool.push(n);
    for (let i = 0; i < count; i++) {
      const j = i + randomInt(0, pool.length - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      picked.add(pool[i]!);
    }
  }
  return [...picked].sort((a, b) => a - b);
}

// A Lucky Dip asks about this many random candidates per number it needs, plus a margin: with at
// least half the numbers free, too few of them are free about once in a million picks.
const CANDIDATES_PER_NUMBER = 4;
const EXTRA_CANDIDATES = 16;

/** How many random candidates a Lucky Dip of `count` numbers asks about. */
export const candidateCount = (count: number) => CANDIDATES_PER_NUMBER * count + EXTRA_CANDIDATES;

/** `size` distinct numbers of 1..total in random order (size well under total). */
export function randomCandidates(total: number, size: number): number[] {
  const picked = new Set<number>();
  while (picked.size < size) picked.add(randomInt(1, total + 1));
  return [...picked];
}

/**
 * `count` free numbers, uniform among the free ones. While most of the competition is free
 * (`mostlyFree`, from its sold count), it asks only whether a few random candidates are taken,
 * not for every sold and held number: on a competition with 50,000 numbers sold that read was
 * 50,000 rows per Lucky Dip. The free candidates come in random order, so their first `count` are
 * a uniform pick among all free numbers. With too few free candidates (many numbers held) or a
 * mostly sold competition, it reads every taken number and picks from those (pickAvailable).
 */
export async function pickFree(
  taken: TakenReader,
  total: number,
  count: number,
  { mostlyFree }: { mostlyFree: boolean },
): Promise<number[]> {
  const size = candidateCount(count);
  if (mostlyFree && size < total / 2) {
    const candidates = randomCandidates(total, size);
    const takenNow = await taken.among(candidates);
    const free = candidates.filter((n) => !takenNow.has(n));
    if (free.length >= count) return free.slice(0, count).sort((a, b) => a - b);
  }
  return pickAvailable(total, await taken.all(), count);
}

/** A TakenReader over the competition's live tickets (plain reads: the unique key settles races). */
export const liveTakenReader = (db: Knex, competitionId: number, now: number): TakenReader => ({
  among: async (numbers) => new Set(await takenAmong(db, competitionId, numbers, now, { locking: false })),
  all: () => unavailableNumbers(db, competitionId, now),
});
