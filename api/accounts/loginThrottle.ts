import type { Knex } from 'knex';
import { ERROR_CODES } from '../../contract/errors';
import { HttpError } from '../platform/errors';

// Failed sign-ins are counted per account and per client address in a fixed window; past the
// limit that key is refused for BLOCK_MS. Counters live in the database so every process shares them.
export const WINDOW_MS = 15 * 60 * 1000;
export const BLOCK_MS = 15 * 60 * 1000;
export const LIMITS = { account: 5, ip: 20 } as const;

export const accountKey = (identifier: string) => `account:${identifier.trim().toLowerCase()}`.slice(0, 191);
export const ipKey = (ip: string) => `ip:${ip}`.slice(0, 191);

const limitOf = (key: string) => (key.startsWith('account:') ? LIMITS.account : LIMITS.ip);

export class TooManyAttempts extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      429,
      ERROR_CODES.rateLimited,
      `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      { retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** Throws TooManyAttempts when any of the keys is blocked. */
export async function assertNotBlocked(db: Knex, keys: string[], now = Date.now()): Promise<void> {
  const rows: Array<{ blockedUntil: number }> = await db('loginThrottle')
    .whereIn('key', keys)
    .where('blockedUntil', '>', now)
    .select('blockedUntil');
  if (rows.length > 0) {
    const until = Math.max(...rows.map((r) => Number(r.blockedUntil)));
    throw new TooManyAttempts(Math.ceil((until - now) / 1000));
  }
}

/** Counts one failure against each key (atomically per key) and blocks keys that reach their limit. */
export async function recordFailure(db: Knex, keys: string[], now = Date.now()): Promise<void> {
  for (const key of keys) {
    await db('loginThrottle')
      .insert({ key, failures: 0, windowStartedAt: now, blockedUntil: 0 })
      .onConflict('key')
      .ignore();
    const windowStart = now - WINDOW_MS;
    // One statement: restart the window if it has passed, otherwise count on.
    await db('loginThrottle')
      .where({ key })
      .update({
        failures: db.raw('CASE WHEN ?? < ? THEN 1 ELSE ?? + 1 END', [
          'window_started_at',
          windowStart,
          'failures',
        ]),
        windowStartedAt: db.raw('CASE WHEN ?? < ? THEN ? ELSE ?? END', [
          'window_started_at',
          windowStart,
          now,
          'window_started_at',
        ]),
      });
    await db('loginThrottle')
      .where({ key })
      .where('failures', '>=', limitOf(key))
      .update({ blockedUntil: now + BLOCK_MS, failures: 0, windowStartedAt: now });
  }
}

/** A successful sign-in clears the account's counter (the address keeps its own). */
export async function clearFailures(db: Knex, key: string): Promise<void> {
  await db('loginThrottle').where({ key }).delete();
}
