import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import session from 'koa-session';
import {
  SESSION_COOKIE,
  SESSION_MAX_AGE_MS,
  type SessionData,
  type SessionStore,
} from '../platform/sessions';

// The koa-session wiring only. The store, the session's data and its helpers are in
// platform/sessions.ts, so services and realtime/ can use them without importing Koa middleware.

declare module 'koa' {
  interface DefaultContext {
    session:
      | (SessionData & { regenerate(): Promise<void> | undefined; readonly externalKey?: string })
      | null;
  }
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

const SEEN_GRANULARITY_MS = 60_000;

/** A town's name as a proxy may send it: letters, spaces and a little punctuation, kept short. */
const AREA = /^[\p{L}\p{M}][\p{L}\p{M} .'’-]{0,59}$/u;

/**
 * The town Cloudflare's visitor-location header names (`cf-ipcity`), only when the site trusts
 * its proxy (TRUST_PROXY=1): otherwise any client could write what its sessions list says.
 */
export function areaOf(ctx: Koa.Context, trustProxy: boolean): string | undefined {
  if (!trustProxy) return undefined;
  const city = ctx.get('cf-ipcity').trim();
  return AREA.test(city) ? city : undefined;
}

/**
 * Keeps a signed-in session's device, area, address and last-seen time for the customer's list of their
 * sessions. Written at most once a minute (or when the address changes), since every change is a
 * write of the session row. Only API requests: static files never load the session.
 */
export function sessionActivity(trustProxy: boolean): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (!ctx.path.startsWith('/api/')) return;
    const s = ctx.session;
    if (!s?.userId) return;
    const now = Date.now();
    if (s.address === ctx.ip && s.lastSeenAt && now - s.lastSeenAt < SEEN_GRANULARITY_MS) return;
    // The area is recorded once, at sign-in (the first request that finds the session signed in).
    if (s.signedInAt === undefined) s.area = areaOf(ctx, trustProxy);
    s.signedInAt ??= now;
    s.userAgent ??= ctx.get('User-Agent').slice(0, 300);
    s.address = ctx.ip;
    s.lastSeenAt = now;
  };
}
