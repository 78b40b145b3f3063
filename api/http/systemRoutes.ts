import type { Router } from '@koa/router';
import { PLATFORM_ROUTES as R } from '../../contract/apiPlatform';
import type { LimitsSummary, READY_CHECK_RESULTS, Ready } from '../../contract/site';
import { pendingMigrations } from '../../db/connection';
import type { AppDeps } from '../platform/context';
import { ensureGuestId } from '../platform/sessions';
import { publicSiteFacts } from '../platform/settings/promoter';
import { csrfTokenFor } from './csrf';
import { serve } from './serve';

/** Health, readiness, CSRF token and the public site configuration. */
export function registerSystemRoutes(router: Router, deps: AppDeps): void {
  const { db, engine, config, logger } = deps;
  serve(router, R.health, async (_, ctx) => {
    try {
      await db.raw('select 1');
      return { ok: true, db: engine };
    } catch (err) {
      logger.error({ err }, 'health check: database unreachable');
      ctx.status = 503;
      return { ok: false, db: engine };
    }
  });

  // Readiness (docs/operations.md#readiness): everything this process needs to serve answers. A
  // load balancer sends traffic only while it is 200; the body names each check.
  serve(router, R.ready, async (_, ctx) => {
    const checks = await readinessChecks(deps);
    const ready = Object.values(checks).every((c) => c === 'ok');
    if (!ready) logger.warn({ checks }, 'not ready');
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ready ? 200 : 503;
    return { ready, checks } satisfies Ready;
  });

  serve(router, R.csrfToken, (_, ctx) => {
    const session = ctx.session!;
    ensureGuestId(session);
    ctx.set('Cache-Control', 'no-store');
    return { csrfToken: csrfTokenFor(session) };
  });

  serve(router, R.siteConfig, async () => {
    const stripe = config.payments.provider === 'stripe';
    return {
      siteName: config.siteName,
      supportEmail: config.supportEmail,
      // Public by law: who runs the competitions, and the charities the site names.
      ...(await publicSiteFacts(db)),
      payments: {
        provider: config.payments.provider,
        publishableKey: stripe ? (config.stripe.publishableKey ?? null) : null,
        testMode: !stripe || Boolean(config.stripe.publishableKey?.startsWith('pk_test_')),
      },
    };
  });
}

/**
 * GET /api/limits: the public limits summary (docs/security.md#public-limits-summary). Harmless to
 * show: the numbers only say how fast one address may register and hold, which anyone learns by
 * meeting them, and they let load tools keep within the limits instead of tripping them.
 */
export function registerLimitsRoutes(router: Router, { config }: AppDeps): void {
  serve(
    router,
    R.limits,
    (): LimitsSummary => ({
      requestLimits: config.rateLimits,
      registrationsPerAddress: {
        count: config.registrationLimits.perAddress,
        windowSeconds: config.registrationLimits.windowSeconds,
      },
      holdsPerMinute: { perSession: config.holdRate.perSession, perAddress: config.holdRate.perAddress },
      reservationSeconds: config.reservationTtlSeconds,
    }),
  );
}

type CheckResult = (typeof READY_CHECK_RESULTS)[number];

const CHECK_TIMEOUT_MS = 2000;

/** A check's result; an error, or no answer in time (a client queueing while it reconnects), fails it. */
function settle(check: Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('failed'), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check.catch((): CheckResult => 'failed'), late]).finally(() => clearTimeout(timer));
}

async function readinessChecks({ db, pingRedis }: AppDeps): Promise<Ready['checks']> {
  const [database, migrations, redis] = await Promise.all([
    settle(db.raw('select 1').then(() => 'ok')),
    settle(pendingMigrations(db).then((pending) => (pending.length ? 'pending migrations' : 'ok'))),
    pingRedis ? settle(pingRedis().then(() => 'ok')) : undefined,
  ]);
  return { database, migrations, ...(redis ? { redis } : {}) };
}
