import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';
import { isApiPathSpelling } from './apiPaths';

/**
 * Serves the built client. Hashed files under /assets/ are cached for a year (immutable); every
 * other GET that is not an API or socket path falls back to index.html so client routes load.
 */
export function staticSite(root: string): Middleware {
  const index = path.join(root, 'index.html');
  return async (ctx, next) => {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      isApiPathSpelling(ctx.path) ||
      ctx.path.startsWith('/socket.io')
    ) {
      return next();
    }
    if (!fs.existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The client has not been built yet: run `npm run build` (npm start does it for you).';
      return;
    }
    const immutable = ctx.path.startsWith('/assets/');
    try {
      const served = await send(ctx, ctx.path, {
        root,
        index: 'index.html',
        setHeaders: (res) => {
          res.setHeader(
            'Cache-Control',
            immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
          );
        },
      });
      if (served.endsWith('index.html')) ctx.set('Cache-Control', 'no-cache');
      return;
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status !== 404 && status !== 400) throw err;
    }
    // Missing hashed asset or file with an extension: a real 404, not the app shell.
    if (immutable || path.extname(ctx.path) !== '') {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    await send(ctx, 'index.html', { root, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') });
  };
}
