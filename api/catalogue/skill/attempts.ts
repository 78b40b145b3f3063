import type { Knex } from 'knex';
import { SKILL_ATTEMPT_WINDOW_MS } from '../../../contract/skill';
import { lockForUpdate } from '../../../db/dialect';
import { ensureGuestId, type SessionData } from '../../platform/sessions';

// Wrong answers to a competition's skill question, counted in the database per account (so a new
// session cookie does not reset them) or, for a visitor, per guest session. One row per
// (competition, attempter) holds the times of the wrong answers inside the window.

/** 'u:<user id>' when signed in, else 'g:<guest id>'. */
export const attempterOf = (s: SessionData): string => (s.userId ? `u:${s.userId}` : `g:${ensureGuestId(s)}`);

export interface AttemptState {
  /** Wrong answers inside the window, oldest first. */
  wrongAt: number[];
  attemptsLeft: number;
  /** When the oldest counted wrong answer leaves the window, once none are left; else null. */
  retryAt: number | null;
}

export function stateOf(wrongAt: number[], maxAttempts: number, now: number): AttemptState {
  const recent = wrongAt.filter((t) => t > now - SKILL_ATTEMPT_WINDOW_MS).sort((a, b) => a - b);
  const attemptsLeft = Math.max(0, maxAttempts - recent.length);
  // With k wrong answers at the limit, a new attempt is allowed when the (k - max + 1)th oldest expires.
  const retryAt = attemptsLeft === 0 ? recent[recent.length - maxAttempts]! + SKILL_ATTEMPT_WINDOW_MS : null;
  return { wrongAt: recent, attemptsLeft, retryAt };
}

const parseTimes = (row: { wrongAt: string } | undefined): number[] =>
  row ? (JSON.parse(row.wrongAt) as number[]) : [];

const key = (competitionId: number, attempter: string) => ({ competitionId, attempter });

/** A plain read, for showing how many attempts are left. */
export async function readAttempts(
  db: Knex,
  competitionId: number,
  attempter: string,
  maxAttempts: number,
  now: number,
): Promise<AttemptState> {
  const row = await db('skillAttempts').where(key(competitionId, attempter)).first('wrongAt');
  return stateOf(parseTimes(row), maxAttempts, now);
}

/**
 * Creates the attempter's row if needed and locks it until COMMIT (the upsert takes an exclusive
 * lock on either engine), so parallel answers from one person are checked one after another.
 */
export async function lockAttempts(
  trx: Knex.Transaction,
  competitionId: number,
  attempter: string,
  maxAttempts: number,
  now: number,
): Promise<AttemptState> {
  await trx('skillAttempts')
    .insert({ ...key(competitionId, attempter), wrongAt: '[]', updatedAt: now })
    .onConflict(['competitionId', 'attempter'])
    .merge(['attempter']);
  const row = await lockForUpdate(
    trx,
    trx('skillAttempts').where(key(competitionId, attempter)).first('wrongAt'),
  );
  return stateOf(parseTimes(row as { wrongAt: string } | undefined), maxAttempts, now);
}

/** Adds a wrong answer to the locked row (dropping times that left the window). */
export async function recordWrongAnswer(
  trx: Knex.Transaction,
  competitionId: number,
  attempter: string,
  state: AttemptState,
  now: number,
): Promise<void> {
  await trx('skillAttempts')
    .where(key(competitionId, attempter))
    .update({ wrongAt: JSON.stringify([...state.wrongAt, now]), updatedAt: now });
}

/**
 * At sign-in the account's attempts decide: a skill pass the guest session earned is kept only for
 * competitions where the account itself is not locked out, since a fresh guest cookie has fresh
 * attempts and would otherwise dodge the account's limit (docs/product.md#skill-question).
 */
export async function keepPassesTheAccountAllows(
  db: Knex,
  session: SessionData,
  userId: number,
  maxAttempts: number,
  now = Date.now(),
): Promise<void> {
  const passed = session.skillPassed ?? [];
  if (!passed.length) return;
  const rows = (await db('skillAttempts')
    .where({ attempter: `u:${userId}` })
    .whereIn('competitionId', passed)
    .select('competitionId', 'wrongAt')) as Array<{ competitionId: number; wrongAt: string }>;
  const locked = new Set(
    rows
      .filter((r) => stateOf(parseTimes(r), maxAttempts, now).attemptsLeft === 0)
      .map((r) => Number(r.competitionId)),
  );
  session.skillPassed = passed.filter((id) => !locked.has(id));
}

/**
 * Deletes the rows whose last wrong answer has left the window (they no longer count, and a row
 * names an account or a guest session); the sweeper calls it. Returns how many went.
 */
export async function purgeStaleSkillAttempts(db: Knex, now = Date.now()): Promise<number> {
  return db('skillAttempts')
    .where('updatedAt', '<=', now - SKILL_ATTEMPT_WINDOW_MS)
    .delete();
}

/** Deletes an attempter's rows (an erased account's: 'u:<id>'). */
export async function forgetAttempter(trx: Knex.Transaction, attempter: string): Promise<void> {
  await trx('skillAttempts').where({ attempter }).delete();
}
