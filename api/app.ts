import path from 'node:path';
import { Router } from '@koa/router';
import Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import compress from 'koa-compress';
import helmet from 'koa-helmet';
import { registerPushRoutes } from './accounts/push/routes';
import { registerAccountRoutes } from './accounts/routes/account';
import { registerAdminEmailRoutes } from './accounts/routes/adminEmails';
import { registerAdminPromoRoutes } from './accounts/routes/adminPromos';
import { registerAdminUserRoutes } from './accounts/routes/adminUsers';
import { registerAuthRoutes } from './accounts/routes/auth';
import { registerComplianceRoutes } from './accounts/routes/compliance';
import { registerMarketingRoutes, UNSUBSCRIBE_PATH } from './accounts/routes/marketing';
import { registerProtectionRoutes } from './accounts/routes/protection';
import { registerSecurityRoutes } from './accounts/routes/security';
import { registerAdminCompetitionRoutes } from './catalogue/routes/adminCompetitions';
import { registerCompetitionRoutes } from './catalogue/routes/competitions';
import { registerNumberRoutes } from './catalogue/routes/numbers';
import { pageStatus, registerSiteFileRoutes } from './catalogue/routes/siteFiles';
import { registerSiteSettingRoutes } from './catalogue/routes/siteSettings';
import { registerUploadRoutes } from './catalogue/routes/uploads';
import { uploadedFiles } from './catalogue/uploadedFiles';
import { registerClaimRoutes } from './draws/claims/routes';
import { registerDrawRoutes } from './draws/routes';
import { apiNotFound } from './http/apiPaths';
import { csrfProtection } from './http/csrf';
import { errorHandler } from './http/errorHandler';
import { registerMetricsRoute } from './http/metricsRoute';
import { requestLogger } from './http/requestLogger';
import { sessionActivity, sessionMiddleware } from './http/session';
import { staticSite } from './http/staticSite';
import { registerLimitsRoutes, registerSystemRoutes } from './http/systemRoutes';
import { registerAdminOrderRoutes } from './orders/routes/adminOrders';
import { registerBackOfficeRoutes } from './orders/routes/backOffice';
import { registerBulkRefundRoutes } from './orders/routes/bulkRefunds';
import { registerCheckoutRoutes, STRIPE_WEBHOOK_PATH } from './orders/routes/checkout';
import { registerOrderHistoryRoutes } from './orders/routes/orderHistory';
import { registerPostalEntryRoutes } from './orders/routes/postalEntries';
import { pageSeeds } from './pages/pageSeed';
import { registerShareImageRoutes } from './pages/routes';
import { serverRender } from './pages/serverRender';
import type { PaymentGateway } from './payments';
import type { AppDeps } from './platform/context';
import { bodyParseError } from './platform/errors';
import { createSessionStore, type SessionStore } from './platform/sessions';
import { registerNumberAlertRoutes } from './tickets/alerts/routes';
import { registerQueueRoutes } from './tickets/queue/routes';
import { registerCartRoutes } from './tickets/routes';

export interface AppOptions {
  /** The payment gateway, built once by the composition root and shared with every route. */
  gateway: PaymentGateway;
  /** The built client (vite build output). Omit to serve only the API. */
  webRoot?: string | undefined;
}

export interface BuiltApp {
  app: Koa;
  sessionStore: SessionStore;
  keys: string[];
  /** The API's route table (tests walk it to check every admin route is guarded). */
  router: Router;
}

const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export const DEFAULT_WEB_ROOT = path.resolve(import.meta.dirname, '../dist/web');

export function createApp(deps: AppDeps, options: AppOptions): BuiltApp {
  const { config, logger, db } = deps;
  const production = config.env === 'production';
  // Without a trusted proxy X-Forwarded-For is ignored, so it cannot be forged to dodge throttling.
  const app = new Koa({ keys: [config.sessionSecret], proxy: config.trustProxy, maxIpsCount: 1 });
  const sessionStore = createSessionStore(db);

  // Koa reports errors from streamed responses here (errors thrown by middleware are already
  // answered by errorHandler). A visitor closing the page mid-download is not a server fault.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code && CLIENT_GONE.has(err.code)) return;
    logger.error({ err }, 'unhandled application error');
  });

  // Outermost, so the request id and the timing cover the error handler's answer and its log line.
  app.use(requestLogger(logger, deps.metrics));
  app.use(errorHandler(logger));
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // styled-components injects <style> tags at run time.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", 'ws:', 'wss:'],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      // HSTS only where the site is served over HTTPS.
      strictTransportSecurity: production ? { maxAge: 15552000, includeSubDomains: true } : false,
    }),
  );
  app.use(compress({ threshold: 1024 }));
  app.use(sessionMiddleware(app, sessionStore, production));
  app.use(sessionActivity(config.trustProxy));
  const parseBody = koaBody({
    jsonLimit: '100kb',
    formLimit: '100kb',
    textLimit: '100kb',
    multipart: false,
    // DELETE /api/account carries the password in its body.
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    onError: (err) => {
      throw bodyParseError(err);
    },
  });
  // Stripe's signature covers the exact bytes sent: that route reads its own raw body.
  app.use((ctx, next) => (ctx.path === STRIPE_WEBHOOK_PATH ? next() : parseBody(ctx, next)));
  // Stripe cannot send a CSRF token; its signature authenticates the webhook instead. Nor can a mail
  // client's one-click unsubscribe (RFC 8058); its signed token is the authority. Exact paths only.
  app.use(csrfProtection([STRIPE_WEBHOOK_PATH, UNSUBSCRIBE_PATH]));

  // Case-sensitive and strict: only the canonical spelling of a path reaches a handler, so no other
  // spelling (/API/login, /api/login/) can slip past a check that reads the path.
  const api = new Router({ sensitive: true, strict: true });
  registerSystemRoutes(api, deps);
  registerMetricsRoute(api, deps);
  registerLimitsRoutes(api, deps);
  registerCompetitionRoutes(api, deps);
  registerNumberRoutes(api, deps);
  registerAuthRoutes(api, deps);
  registerAccountRoutes(api, deps);
  registerSecurityRoutes(api, deps);
  registerProtectionRoutes(api, deps);
  registerCartRoutes(api, deps);
  registerNumberAlertRoutes(api, deps);
  registerQueueRoutes(api, deps);
  registerCheckoutRoutes(api, deps, options.gateway);
  registerOrderHistoryRoutes(api, deps);
  registerAdminCompetitionRoutes(api, deps);
  registerDrawRoutes(api, deps);
  registerClaimRoutes(api, deps);
  registerAdminUserRoutes(api, deps);
  registerComplianceRoutes(api, deps);
  registerAdminOrderRoutes(api, deps, options.gateway);
  registerBulkRefundRoutes(api, deps, options.gateway);
  registerBackOfficeRoutes(api, deps, options.gateway);
  registerPostalEntryRoutes(api, deps);
  registerAdminPromoRoutes(api, deps);
  registerAdminEmailRoutes(api, deps);
  registerMarketingRoutes(api, deps);
  registerPushRoutes(api, deps);
  registerUploadRoutes(api, deps);
  registerSiteSettingRoutes(api, deps);
  registerSiteFileRoutes(api, deps);
  registerShareImageRoutes(api, deps, options.webRoot);
  app.use(api.routes());
  // A known path with the wrong method is a 405 with an Allow header (thrown, so it is JSON too).
  app.use(api.allowedMethods({ throw: true }));

  // Unknown API paths, in any spelling (/API/x, /api//x, /%61pi/x), get JSON, never the client app.
  app.use(apiNotFound());

  app.use(uploadedFiles(config.dataDir));
  if (options.webRoot) {
    // The home and competition pages come rendered by the server for a visitor (api/pages/).
    const renderPage = serverRender({ webRoot: options.webRoot, logger, seedFor: pageSeeds(deps) });
    app.use(staticSite(options.webRoot, { pageStatus: pageStatus(db), renderPage }));
  }

  return { app, sessionStore, keys: [config.sessionSecret], router: api };
}
