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
