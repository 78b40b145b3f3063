import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { isApiPathSpelling } from './apiPaths';

/** One structured line per API request (static assets are not logged: they are only noise). */
export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    if (!isApiPathSpelling(ctx.path)) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      logger.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
}
