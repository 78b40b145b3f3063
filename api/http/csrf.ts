import { timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ERROR_CODES } from '../../contract/errors';
import { HttpError } from '../platform/errors';
import { newToken, type SessionData } from '../platform/sessions';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

/** The session's CSRF token, created on first use. */
export function csrfTokenFor(s: SessionData): string {
  s.csrfToken ??= newToken();
  return s.csrfToken;
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Every state-changing request (any method but GET, HEAD and OPTIONS), on every path, must echo the
 * session's token in X-CSRF-Token. The token lives in the server-side session, so a token from
 * another session (or none) is refused with 403. No prefix decides: a prefix check is skipped by
 * spelling the path another way (`/API/login`). `exemptPaths` are compared exactly as sent.
 */
export function csrfProtection(exemptPaths: readonly string[] = []): Middleware {
  return async (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method) || exemptPaths.includes(ctx.path)) return next();
    const sent = ctx.get(CSRF_HEADER);
    const expected = ctx.session?.csrfToken;
    if (!sent || !expected || !sameToken(sent, expected)) {
      throw new HttpError(
        403,
        ERROR_CODES.csrf,
        'Invalid or missing CSRF token. Please refresh the page and try again.',
      );
    }
    return next();
  };
}
