import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/build';
import { insertCompetition } from '../../support/fixtures';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// What a crawler and an operator expect over HTTP (#16.8, #22): real pages 200, anything else 404
// with the app shell (whose not-found page the browser then shows), site files, cache headers and
// no source maps. The built client is stood in for by a small folder of the same shape.

// Over 1 KB, so the build's precompression makes .br and .gz copies of it as of a real shell.
const SHELL = `<!doctype html><html><head><title>Shell</title><!-- ${'padding '.repeat(200)}--></head><body><div id="root"></div></body></html>`;
/** A bundle big enough to be precompressed (scripts/build.ts skips files under 1 KB). */
const BUNDLE = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i * 7};`).join('\n');
const PUBLIC_URL = 'https://www.shop.example';

function fakeBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-web-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.mkdirSync(path.join(root, 'images'));
  fs.writeFileSync(path.join(root, 'index.html'), SHELL);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js.map'), '{"version":3}');
  fs.writeFileSync(path.join(root, 'images', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(root, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  fs.writeFileSync(path.join(root, 'assets', 'app-def456.js'), BUNDLE);
  return root;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose body is left as sent (fetch would decode it), with the given Accept-Encoding. */
function rawGet(base: string, p: string, acceptEncoding: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(p, base), { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe.skipIf(engineUnavailable())(`pages and site files on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let webRoot: string;
  const ids = { active: 0, ended: 0, archived: 0 };
  // cache: 'no-cache' keeps fetch from adding its own Cache-Control: no-cache to a conditional
  // request (which would rightly make the server send the whole file).
  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(server.url + p, { headers, redirect: 'manual', cache: 'no-cache' });

  beforeAll(async () => {
    webRoot = fakeBuild();
    await precompress(webRoot);
    server = await startTestServer({ PUBLIC_URL }, { webRoot });
    db = server.database.db;
    ids.active = await insertCompetition(db, { title: 'Open & shut <case>' });
    ids.ended = await insertCompetition(db, { status: 'ended' });
    ids.archived = await insertCompetition(db, { status: 'archived' });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers 200 with the app shell for every page of the route table', async () => {
    for (const page of [
      '/',
      '/competitions',
      `/competitions/${ids.active}`,
      `/competition/${ids.active}`,
      `/competitions/${ids.ended}`,
      '/about',
      '/Terms',
      '/cart/',
      '/payment-success?orderRef=ORD-0000000001',
      '/payment-success/12',
      '/orders/12/receipt',
      '/admin/orders/5',
      '/my-tickets',
    ]) {
      const res = await get(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type'), page).toMatch(/text\/html/);
      expect(await res.text(), page).toBe(SHELL);
    }
  });

  it('answers 404 with the app shell (the not-found page) for any other path and for a missing competition', async () => {
    for (const page of [
      '/no-such-page',
      '/competitions/999999',
      '/competitions/abc',
      '/competitions/0',
      `/competitions/${ids.archived}`,
      `/competition/${ids.archived}`,
      `/competitions/${ids.active}/extra`,
      '/admin/nothing-here',
    ]) {
      const res = await get(page);
      expect(res.status, page).toBe(404);
      expect(res.headers.get('content-type'), page).toMatch(/text\/html/);
      expect(await res.text(), page).toBe(SHELL);
    }
    // Missing files stay plain 404s, never the shell.
    for (const file of ['/images/missing.png', '/assets/index-gone.js', '/nothing.txt']) {
      const res = await get(file);
      expect(res.status, file).toBe(404);
      expect(await res.text(), file).toBe('Not found');
    }
  });

  it('never serves a source map', async () => {
    expect((await get('/assets/index-abc123.js')).status).toBe(200);
    expect((await get('/assets/index-abc123.js.map')).status).toBe(404);
  });

  it('caches hashed assets and images for a year, and makes browsers revalidate everything else', async () => {
    for (const file of ['/assets/index-abc123.js', '/images/logo.svg']) {
      expect((await get(file)).headers.get('cache-control'), file).toBe(
        'public, max-age=31536000, immutable',
      );
    }
    for (const file of ['/', '/about', '/index.html', '/favicon.ico', '/no-such-page', '/robots.txt']) {
      expect((await get(file)).headers.get('cache-control'), file).toBe('no-cache');
    }
    // Revalidation: an unchanged file is a 304 without a body.
    const first = await get('/favicon.ico');
    const lastModified = first.headers.get('last-modified')!;
    expect(lastModified).toBeTruthy();
    const again = await get('/favicon.ico', { 'If-Modified-Since': lastModified });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves /robots.txt pointing at the sitemap, keeping crawlers out of private pages', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/admin$/m);
    expect(text).toMatch(/^Disallow: \/checkout$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('serves /sitemap.xml listing the public pages and every open competition by absolute URL', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toContain(`${PUBLIC_URL}/`);
    expect(locs).toContain(`${PUBLIC_URL}/competitions`);
    expect(locs).toContain(`${PUBLIC_URL}/competitions/${ids.active}`);
    expect(locs).not.toContain(`${PUBLIC_URL}/competitions/${ids.ended}`);
    expect(locs).not.toContain(`${PUBLIC_URL}/competitions/${ids.archived}`);
    expect(locs.every((loc) => loc?.startsWith(`${PUBLIC_URL}/`))).toBe(true);
    expect(xml).not.toContain('/cart');
  });

  it("sends the build's brotli or gzip copy of a text file by Accept-Encoding, compressed once, with Vary", async () => {
    expect(fs.existsSync(path.join(webRoot, 'assets', 'app-def456.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(webRoot, 'assets', 'app-def456.js.gz'))).toBe(true);
    const cases = [
      { accept: 'gzip, deflate, br', encoding: 'br', decode: zlib.brotliDecompressSync },
      { accept: 'gzip', encoding: 'gzip', decode: zlib.gunzipSync },
      { accept: 'identity', encoding: undefined, decode: (b: Buffer) => b },
    ];
    for (const { accept, encoding, decode } of cases) {
      const res = await rawGet(server.url, '/assets/app-def456.js', accept);
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-type'], accept).toMatch(/^(text|application)\/javascript/);
      expect(res.headers.vary, accept).toMatch(/Accept-Encoding/i);
      // The hashed-asset rule holds for the compressed copies too.
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      // Decoded once it is the file itself: koa-compress did not compress the copy again.
      expect(decode(res.body).toString('utf8'), accept).toBe(BUNDLE);
      // The build's copy, byte for byte: nothing is compressed per request.
      if (encoding) {
        const copy = path.join(webRoot, 'assets', `app-def456.js.${encoding === 'br' ? 'br' : 'gz'}`);
        expect(res.body.equals(fs.readFileSync(copy)), accept).toBe(true);
      }
    }
  });

  it('sends the app shell precompressed too, with the page status and revalidation', async () => {
    for (const [page, status] of [
      ['/', 200],
      ['/about', 200],
      ['/no-such-page', 404],
    ] as const) {
      const res = await rawGet(server.url, page, 'br');
      expect(res.status, page).toBe(status);
      expect(res.headers['content-encoding'], page).toBe('br');
      expect(res.headers['content-type'], page).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], page).toBe('no-cache');
      expect(res.headers.vary, page).toMatch(/Accept-Encoding/i);
      expect(res.body.equals(fs.readFileSync(path.join(webRoot, 'index.html.br'))), page).toBe(true);
      expect(zlib.brotliDecompressSync(res.body).toString('utf8'), page).toBe(SHELL);
    }
  });
});
