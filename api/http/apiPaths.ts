import type { Middleware } from 'koa';
import { notFound } from '../platform/errors';

const decodeOnce = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/**
 * True for the canonical `/api` paths and for every other spelling a lenient reader could take for
 * one: `/API/login`, `/api//login`, `/%61pi/login`. The router matches only the canonical spelling
 * (case-sensitive, strict); this is how the rest of the stack knows the others are API requests too,
 * so they get a JSON 404 instead of the client app.
 */
export function isApiPathSpelling(path: string): boolean {
  const folded = decodeOnce(path)
    .toLowerCase()
    .replace(/\/{2,}/g, '/');
  return folded === '/api' || folded.startsWith('/api/');
}

/**
 * After the router: any API spelling it did not answer is a 404 in the error shape, whatever the
 * method. Set (not thrown) so allowedMethods, which runs before, can still answer 405.
 */
export function apiNotFound(): Middleware {
  return async (ctx, next) => {
    if (!isApiPathSpelling(ctx.path)) return next();
    const err = notFound(`No API route for ${ctx.method} ${ctx.path}`);
    ctx.status = err.status;
    ctx.body = { message: err.message, code: err.code };
  };
}
