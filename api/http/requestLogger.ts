import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from '../platform/observability/metrics';
import {
  newRequestContext,
  REQUEST_ID_HEADER,
  withRequestContext,
} from '../platform/observability/requestContext';
import { isApiPathSpelling } from './apiPaths';

/**
 * Gives every request an id of this server's own, sent back as X-Request-Id and carried by every
 * log line written while it is served (with a sane incoming X-Request-Id as `clientReqId`); times it for
 * http_request_duration_seconds; writes one structured line per API request (static assets are
 * not logged: they are only noise).
 */
export function requestLogger(logger: Logger, metrics: Metrics): Middleware {
  return (ctx, next) => {
    const context = newRequestContext(ctx.get(REQUEST_ID_HEADER) || undefined);
    ctx.set(REQUEST_ID_HEADER, context.requestId);
    return withRequestContext(context, async () => {
      const api = isApiPathSpelling(ctx.path);
      const started = performance.now();
      try {
        await next();
      } finally {
        const seconds = (performance.now() - started) / 1000;
        // The router's path template keeps the label set bounded, whatever URLs are sent.
        const template = ctx._matchedRoute;
        const route = typeof template === 'string' ? template : api ? '(unmatched)' : '(site)';
        metrics.httpDuration.observe({ route, method: ctx.method, status: String(ctx.status) }, seconds);
        if (api) {
          logger.info(
            { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1000) },
            'request',
          );
        }
      }
    });
  };
}
