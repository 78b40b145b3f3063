import { createHash, timingSafeEqual } from 'node:crypto';
import type { Router } from '@koa/router';
import { PLATFORM_ROUTES as R } from '../../contract/apiPlatform';
import { ERROR_CODES } from '../../contract/errors';
import type { AppDeps } from '../platform/context';
import { forbidden, HttpError, notFound } from '../platform/errors';
import { serve } from './serve';

export const METRICS_PATH = R.metrics.path;

// Equal-length digests, so the comparison takes the same time however much of a guess is right.
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics in the Prometheus text format, for a scraper holding METRICS_TOKEN as a bearer
 * token. Unset, the endpoint is off and answers 404 (docs/operations.md#metrics).
 */
export function registerMetricsRoute(router: Router, { config, metrics }: AppDeps): void {
  const expected = config.metricsToken ? digest(config.metricsToken) : undefined;
  serve(router, R.metrics, async (_, ctx) => {
    if (!expected) throw notFound('Metrics are off: set METRICS_TOKEN to turn them on.');
    const token = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    if (!token)
      throw new HttpError(
        401,
        ERROR_CODES.unauthenticated,
        'Metrics need the METRICS_TOKEN bearer token.',
        {},
        {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        },
      );
    if (!timingSafeEqual(digest(token), expected)) throw forbidden('That metrics token is not valid.');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.exposition();
  });
}
