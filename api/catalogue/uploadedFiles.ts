import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { STORED_NAME, UPLOADS_URL_PREFIX, uploadsDirOf } from './uploads';

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

/**
 * Serves stored uploads at /uploads/<random name>: only names the upload service makes (no
 * path can escape the directory), with the type of the bytes checked at upload, nosniff, and a
 * year's cache: a name (original or variant) is random, written once and never reused for other
 * content, so it is as good as a content hash.
 */
export function uploadedFiles(dataDir: string): Middleware {
  const dir = uploadsDirOf(dataDir);
  return async (ctx, next) => {
    if (!ctx.path.startsWith(UPLOADS_URL_PREFIX)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const name = ctx.path.slice(UPLOADS_URL_PREFIX.length);
    const file = path.join(dir, name);
    const size = STORED_NAME.test(name)
      ? await fs.promises.stat(file).then(
          (s) => s.size,
          () => undefined,
        )
      : undefined;
    if (size === undefined) {
      ctx.status = 404; // never the client app's fallback page
      ctx.body = 'Not found';
      return;
    }
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.type = TYPES[name.split('.').pop()!]!;
    ctx.length = size;
    if (ctx.method === 'HEAD') ctx.status = 200;
    else ctx.body = fs.createReadStream(file);
  };
}
