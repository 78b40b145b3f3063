import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';

// Sessions as data: what a session holds, the store koa-session and realtime/ read it from, and
// the guest id. The Koa middleware that uses them is http/session.ts.

/** The cookie's name: http/session.ts sets it, realtime/ reads it on the socket handshake. */
export const SESSION_COOKIE = 'wcp.sid';
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** What we keep in a session. Later features add fields (userId, skill answers...). */
export interface SessionData {
  /** Identifies a visitor's cart before (and after) they sign in. Never the cookie value itself. */
  guestId?: string;
  csrfToken?: string;
  /** Set while signed in. */
  userId?: number;
  /** Competitions whose skill question this session answered correctly. */
  skillPassed?: number[];
  /** Per competition id, the skill question this session was shown (its answer is checked against it). */
  skillShown?: Record<string, string>;
  /** The password was right for this account, which still owes its two-factor code (not signed in). */
  twoFactorPending?: { userId: number; expiresAt: number };
  /** While signed in, for the customer's list of their sessions: the browser's user agent, */
  userAgent?: string;
  /** the town a trusted proxy placed the sign-in in (Cloudflare's `cf-ipcity`), */
  area?: string;
  /** the client address of its latest request, */
  address?: string;
  /** and when it signed in and was last seen (epoch ms; last seen is kept to the minute). */
  signedInAt?: number;
  lastSeenAt?: number;
}

interface SessionRow {
  id: string;
  data: string;
  expiresAt: number;
  endedAt: number | null;
}

/**
 * koa-session store on the `sessions` table, so sessions survive restarts and work across processes.
 *
 * A session that ended (signed out, a new password, "sign out other sessions") stays ended: its row
 * is kept with `endedAt` set until it would have expired, and a save only ever updates a live row
 * or inserts a key never seen. koa-session saves at the end of every request that loaded the
 * session, so a request in flight when the session ended (a slow body, say) would otherwise write
 * it back (docs/security.md#sessions).
 */
export function createSessionStore(db: Knex) {
  return {
    async get(key: string): Promise<SessionData | null> {
      const row = (await db<SessionRow>('sessions').where({ id: key }).first()) as SessionRow | undefined;
      if (!row || row.endedAt !== null || row.expiresAt <= Date.now()) return null;
      return JSON.parse(row.data) as SessionData;
    },
    async set(key: string, data: SessionData, maxAge: number): Promise<void> {
      const expiresAt = Date.now() + (Number.isFinite(maxAge) ? maxAge : SESSION_MAX_AGE_MS);
      const values = { data: JSON.stringify(data), expiresAt };
      const updated = await db('sessions').where({ id: key }).whereNull('endedAt').update(values);
      if (updated) return;
      // A new key (koa-session's genid) has no row; an ended one keeps its mark, so this is ignored.
      await db('sessions')
        .insert({ id: key, ...values })
        .onConflict('id')
        .ignore();
    },
    async destroy(key: string): Promise<void> {
      await endSessionRows(db, [key]);
    },
  };
}

/** Marks sessions ended: refused from now on, and never written back by a late save. */
export async function endSessionRows(db: Knex, keys: string[], now = Date.now()): Promise<void> {
  if (!keys.length) return;
  await db('sessions').whereIn('id', keys).update({ endedAt: now, data: '{}' });
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/**
 * Deletes sessions past their expiry, ended ones included (both are already refused); returns how
 * many went. An ended row goes only then: a request still in flight by that time was started before
 * the session ended and outlived the session's whole life, which no request does.
 */
export async function purgeExpiredSessions(db: Knex, now = Date.now()): Promise<number> {
  return db('sessions').where('expiresAt', '<=', now).delete();
}

export const newToken = () => randomBytes(32).toString('base64url');

/** Gives the session a guest id (and so a cookie) if it has none yet. */
export function ensureGuestId(s: SessionData): string {
  s.guestId ??= newToken().slice(0, 32);
  return s.guestId;
}

/** Remembers that this session answered the competition's skill question correctly. */
export function recordSkillPassed(s: SessionData, competitionId: number): void {
  s.skillPassed = [...new Set([...(s.skillPassed ?? []), competitionId])];
}

/** Whether this session may enter the competition: its skill question was answered correctly. */
export const hasPassedSkill = (s: SessionData | null | undefined, competitionId: number) =>
  Boolean(s?.skillPassed?.includes(competitionId));

/** The skill question (its id in the pool) this session was shown for the competition, if any. */
export const skillShownFor = (s: SessionData, competitionId: number): string | undefined =>
  s.skillShown?.[String(competitionId)];

/** Remembers the question shown, or forgets it (null) so that the next visit draws afresh. */
export function setSkillShown(s: SessionData, competitionId: number, questionId: string | null): void {
  const { [String(competitionId)]: _, ...others } = s.skillShown ?? {};
  s.skillShown = questionId === null ? others : { ...others, [String(competitionId)]: questionId };
}
