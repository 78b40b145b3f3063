import type { Router } from '@koa/router';
import type { READY_CHECK_RESULTS, Ready } from '../../contract/site';
import { pendingMigrations } from '../../db/connection';
import type { AppDeps } from '../platform/context';
import { ensureGuestId } from '../platform/sessions';
import { csrfTokenFor } from './csrf';

/** Health, readiness, CSRF token and the public site configuration. */
export function registerSystemRoutes(router: Router, deps: AppDeps): void {
  const { db, engine, config, logger } = deps;
  router.get('/api/health', async (ctx) => {
    try {
      await db.raw('select 1');
      ctx.body = { ok: true, db: engine };
    } catch (err) {
      logger.error({ err }, 'health check: database unreachable');
      ctx.status = 503;
      ctx.body = { ok: false, db: engine };
    }
  });

  // Readiness (docs/operations.md#readiness): everything this process needs to serve answers. A
  // load balancer sends traffic only while it is 200; the body names each check.
  router.get('/api/ready', async (ctx) => {
    const checks = await readinessChecks(deps);
    const ready = Object.values(checks).every((c) => c === 'ok');
    if (!ready) logger.warn({ checks }, 'not ready');
    ctx.set('Cache-Control', 'no-store');
    ctx.status = ready ? 200 : 503;
    ctx.body = { ready, checks } satisfies Ready;
  });

  router.get('/api/csrf-token', (ctx) => {
    const session = ctx.session!;
    ensureGuestId(session);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { csrfToken: csrfTokenFor(session) };
  });

  router.get('/api/site-config', (ctx) => {
    const stripe = config.payments.provider === 'stripe';
    ctx.body = {
      siteName: config.siteName,
      supportEmail: config.supportEmail,
      payments: {
        provider: config.payments.provider,
        publishableKey: stripe ? (config.stripe.publishableKey ?? null) : null,
        testMode: !stripe || Boolean(config.stripe.publishableKey?.startsWith('pk_test_')),
      },
    };
  });
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
