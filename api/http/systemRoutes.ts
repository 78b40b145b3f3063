import type { Router } from '@koa/router';
import type { AppDeps } from '../platform/context';
import { ensureGuestId } from '../platform/sessions';
import { csrfTokenFor } from './csrf';

/** Health, CSRF token and the public site configuration. */
export function registerSystemRoutes(router: Router, { db, engine, config, logger }: AppDeps): void {
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
