import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type Koa from 'koa';
import session from 'koa-session';

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
}

declare module 'koa' {
  interface DefaultContext {
    session:
      | (SessionData & { regenerate(): Promise<void> | undefined; readonly externalKey?: string })
      | null;
  }
}

interface SessionRow {
  id: string;
  data: string;
  expiresAt: number;
}

/** koa-session store on the `sessions` table, so sessions survive restarts and work across processes. */
export function createSessionStore(db: Knex) {
  return {
    async get(key: string): Promise<SessionData | null> {
      const row = (await db<SessionRow>('sessions').where({ id: key }).first()) as SessionRow | undefined;
      if (!row || row.expiresAt <= Date.now()) return null;
      return JSON.parse(row.data) as SessionData;
    },
    async set(key: string, data: SessionData, maxAge: number): Promise<void> {
      const expiresAt = Date.now() + (Number.isFinite(maxAge) ? maxAge : SESSION_MAX_AGE_MS);
      await db('sessions')
        .insert({ id: key, data: JSON.stringify(data), expiresAt })
        .onConflict('id')
        .merge(['data', 'expiresAt']);
    },
    async destroy(key: string): Promise<void> {
      await db('sessions').where({ id: key }).delete();
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** Deletes sessions past their expiry (they are already refused); returns how many went. */
export async function purgeExpiredSessions(db: Knex, now = Date.now()): Promise<number> {
  return db('sessions').where('expiresAt', '<=', now).delete();
}

export function sessionMiddleware(app: Koa, store: SessionStore, secure: boolean): Koa.Middleware {
  return session(
    {
      key: SESSION_COOKIE,
      maxAge: SESSION_MAX_AGE_MS,
      httpOnly: true,
      sameSite: 'lax',
      secure,
      signed: true,
      renew: true,
      // 256 random bits per session key (the cookie value).
      genid: () => randomBytes(32).toString('base64url'),
      // biome-ignore lint/suspicious/noExplicitAny: koa-session's store type is generated from a zod schema
      store: store as any,
    },
    app,
  );
}

export const newToken = () => randomBytes(32).toString('base64url');

/** Gives the session a guest id (and so a cookie) if it has none yet. */
export function ensureGuestId(s: SessionData): string {
  s.guestId ??= newToken().slice(0, 32);
  return s.guestId;
}
