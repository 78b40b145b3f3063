import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { Context, Middleware } from 'koa';
import send from 'koa-send';
import { isApiPathSpelling } from './apiPaths';

/** Files whose content never changes under one URL: hashed bundles, and the bundled images. */
const LONG_LIVED = ['/assets/', '/images/'];
const LONG_CACHE = 'public, max-age=31536000, immutable';
/** Everything else may change with a deploy: browsers keep it but ask again every time. */
const REVALIDATE = 'no-cache';
/**
 * Text files, which the build precompresses (scripts/build.ts writes `.br` and `.gz` beside them):
 * their answer depends on Accept-Encoding, so caches must key on it.
 */
const PRECOMPRESSED_TYPES = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)(?:\.br|\.gz)?$/i;

export interface StaticSiteOptions {
  /** The status of a client page (404 for a path the route table does not know); 200 without. */
  pageStatus?: (pathname: string, ctx: Context) => Promise<number>;
  /**
   * The page rendered by the server (api/pages/serverRender.ts), or undefined to serve the app
   * shell (index.html) for the browser to render, as for every page it does not render.
   */
  renderPage?: (ctx: Context) => Promise<string | undefined>;
}

/** The build's server renderer (scripts/build.ts): for the server's eyes only. */
const SERVER_ONLY = '/ssr/';

/** A 304 when the browser's copy (If-Modified-Since against Last-Modified) is still current. */
function answerFresh(ctx: Context) {
  if (ctx.status === 200 && ctx.fresh) ctx.status = 304;
}

/**
 * Serves the built client. Hashed files under /assets/ and the images under /images/ are cached
 * for a year; every other file must be revalidated. A text file is sent as its precompressed
 * `.br` or `.gz` copy when the browser accepts that encoding (koa-send picks it, brotli first),
 * so nothing is compressed per request; koa-compress leaves an answer that already has a
 * Content-Encoding alone. A GET that is not an API or socket path and
 * names no file gets the app shell (index.html), with 404 for a path that is no page. Source maps
 * are never served.
 */
export function staticSite(root: string, { pageStatus, renderPage }: StaticSiteOptions = {}): Middleware {
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
    if (ctx.path.startsWith(SERVER_ONLY)) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    // A page the server renders: built per request (its data changes without any file), so never
    // a 304 by a file's date; koa-compress compresses it.
    const rendered = renderPage && !path.extname(ctx.path) ? await renderPage(ctx) : undefined;
    if (rendered !== undefined) {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', REVALIDATE);
      ctx.body = rendered;
      return;
    }
    const longLived = LONG_LIVED.some((prefix) => ctx.path.startsWith(prefix));
    const setHeaders = (res: ServerResponse, file: string) => {
      res.setHeader('Cache-Control', longLived ? LONG_CACHE : REVALIDATE);
      if (PRECOMPRESSED_TYPES.test(file)) ctx.vary('Accept-Encoding');
    };
    if (!ctx.path.endsWith('.map')) {
      try {
        const served = await send(ctx, ctx.path, {
          root,
          index: 'index.html',
          brotli: true,
          gzip: true,
          setHeaders,
        });
        // koa-send answers with the file it sent, which may be the .br or .gz copy.
        const sent = served.replace(/\.(?:br|gz)$/, '');
        if (sent.endsWith('index.html') && !path.extname(ctx.path) && pageStatus)
          ctx.status = await pageStatus(ctx.path, ctx);
        answerFresh(ctx);
        return;
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (status !== 404 && status !== 400) throw err;
      }
    }
    // Missing hashed asset or file with an extension: a real 404, not the app shell.
    if (longLived || path.extname(ctx.path) !== '') {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    await send(ctx, 'index.html', { root, brotli: true, gzip: true, setHeaders });
    // The not-found page is the app shell too: the client shows it for a path it does not know.
    if (pageStatus) ctx.status = await pageStatus(ctx.path, ctx);
    answerFresh(ctx);
  };
}
