import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { ERROR_CODES } from '../../contract/errors';
import { conflict } from '../platform/errors';
import { liveTickets } from './liveTickets';

// Which numbers are free, and a uniform pick among them (Lucky Dip, replacement numbers).

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
