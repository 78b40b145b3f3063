import type { Router } from '@koa/router';
import type { LimitsSummary } from '../../contract/site';
import type { AppDeps } from '../platform/context';

/**
 * GET /api/limits: the public limits summary (docs/security.md#public-limits-summary). Harmless to
 * show: the numbers only say how fast one address may register and hold, which anyone learns by
 * meeting them, and they let load tools keep within the limits instead of tripping them.
 */
export function registerLimitsRoutes(router: Router, { config }: AppDeps): void {
  router.get('/api/limits', (ctx) => {
    const body: LimitsSummary = {
      requestLimits: config.rateLimits,
      registrationsPerAddress: {
        count: config.registrationLimits.perAddress,
        windowSeconds: config.registrationLimits.windowSeconds,
      },
      holdsPerMinute: { perSession: config.holdRate.perSession, perAddress: config.holdRate.perAddress },
      reservationSeconds: config.reservationTtlSeconds,
    };
    ctx.body = body;
  });
}
