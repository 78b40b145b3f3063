import path from 'node:path';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import compress from 'koa-compress';
import helmet from 'koa-helmet';
import type { AppDeps } from './context';
import { notFound } from './errors';
import { csrfProtection } from './middleware/csrf';
import { errorHandler } from './middleware/errorHandler';
import { requestLogger } from './middleware/requestLogger';
import { createSessionStore, type SessionStore, sessionMiddleware } from './middleware/session';
import { staticSite } from './middleware/staticSite';
import { competitionRoutes } from './routes/competitions';
import { systemRoutes } from './routes/system';

export interface AppOptions {
  /** The built client (vite build output). Omit to serve only the API. */
  webRoot?: string;
}

export interface BuiltApp {
  app: Koa;
  sessionStore: SessionStore;
  keys: string[];
}

export const DEFAULT_WEB_ROOT = path.resolve(import.meta.dirname, '../dist/web');

export function createApp(deps: AppDeps, options: AppOptions = {}): BuiltApp {
  const { config, logger, db } = deps;
  const production = config.env === 'production';
  const app = new Koa({ keys: [config.sessionSecret], proxy: false });
  const sessionStore = createSessionStore(db);

  app.use(errorHandler(logger));
  app.use(requestLogger(logger));
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
  app.use(koaBody({ jsonLimit: '100kb', formLimit: '100kb', textLimit: '100kb', multipart: false }));
  app.use(csrfProtection());

  for (const router of [systemRoutes(deps), competitionRoutes(deps)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }

  // Unknown API paths get JSON, never the client app.
  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/'))
      throw notFound(`No API route for ${ctx.method} ${ctx.path}`);
    await next();
  });

  if (options.webRoot) app.use(staticSite(options.webRoot));

  return { app, sessionStore, keys: [config.sessionSecret] };
}
