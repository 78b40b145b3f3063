import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SEED_ID, type PageSeed } from '../../../contract/pageSeed';
import { registeredClient } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// The pages the server renders (api/pages/): which requests, with what seed, put where in the
// shell, and the app shell for everything else and on any error. The build's renderer is stood in
// for by a module of the same shape that shows what it was given.

const SHELL =
  '<!doctype html><html><head><title>Shell</title><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>';

// Renders the URL and the seed's API paths; fails for ?boom, as a broken page would.
const RENDERER = `export async function render(url, seed) {
  if (url.includes('boom')) throw new Error('render failed');
  return { html: '<main data-url="' + url + '">' + Object.keys(seed.api).join(',') + '</main>', styles: '<style data-styled="true">.a{}</style>' };
}
`;

function fakeBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-ssr-'));
  fs.writeFileSync(path.join(root, 'index.html'), SHELL);
  fs.mkdirSync(path.join(root, 'ssr'));
  fs.writeFileSync(path.join(root, 'ssr', 'entry-server.js'), RENDERER);
  return root;
}

/** The seed a page carries, parsed; undefined when it carries none. */
function seedOf(html: string): PageSeed | undefined {
  const start = html.indexOf(`<script id="${PAGE_SEED_ID}" type="application/json">`);
  if (start < 0) return undefined;
  const json = html.slice(html.indexOf('>', start) + 1, html.indexOf('</script>', start));
  expect(json).not.toContain('<');
  return JSON.parse(json) as PageSeed;
}

describe.skipIf(engineUnavailable())(`server-rendered pages on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let webRoot: string;
  const ids = { active: 0, archived: 0 };
  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(server.url + p, { headers, redirect: 'manual' });
  const json = async (p: string) => (await get(p)).json();

  beforeAll(async () => {
    webRoot = fakeBuild();
    server = await startTestServer({}, { webRoot });
    db = server.database.db;
    ids.active = await insertCompetition(db, { title: 'Open & shut <case>' });
    ids.archived = await insertCompetition(db, { status: 'archived' });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it("renders the home page for a visitor with the API's own answers, styles in the head, seed after #root", async () => {
    const before = Date.now();
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    const site = await json('/api/site-config');
    expect(html).toContain(`<title>${site.siteName} | Win prizes from the South West</title>`);
    expect(html).toContain('<style data-styled="true">.a{}</style></head>');
    expect(html).toContain(
      `<div id="root"><main data-url="/">/api/admin/hero-image,/api/competitions</main></div><script id="${PAGE_SEED_ID}"`,
    );
    expect(seedOf(html)).toEqual({
      api: {
        '/api/admin/hero-image': await json('/api/admin/hero-image'),
        '/api/competitions': await json('/api/competitions'),
      },
      session: { user: null },
      site: {
        siteName: site.siteName,
        supportEmail: site.supportEmail,
        promoter: site.promoter,
        charities: site.charities,
      },
      promotions: await json('/api/promotions/current'),
      renderedAt: expect.any(Number),
    });
    expect(seedOf(html)!.renderedAt).toBeGreaterThanOrEqual(before);
    // The session's answer is public: no CSRF token or session id in the page.
    expect(html).not.toMatch(/csrf/i);
  });

  it("renders a competition page with GET /api/competitions/:id's answer, its title escaped", async () => {
    for (const p of [`/competition/${ids.active}`, `/competitions/${ids.active}?tab=x`]) {
      const html = await (await get(p)).text();
      expect(html, p).toContain(`<main data-url="${p}">/api/competitions/${ids.active}</main>`);
      expect(html).toContain('<title>Open &amp; shut &lt;case&gt; | ');
      expect(seedOf(html)?.api).toEqual({
        [`/api/competitions/${ids.active}`]: await json(`/api/competitions/${ids.active}`),
      });
    }
  });

  /** The <head> of a rendered page, and the JSON-LD in it (undefined without one). */
  const headOf = (html: string) => html.slice(0, html.indexOf('</head>'));
  const metaOf = (head: string, key: string) =>
    new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(head)?.[1];

  it('a competition page carries its link preview: Open Graph, X card, canonical and a JSON-LD Product with a GBP Offer', async () => {
    const endDate = Date.now() + 5 * 86_400_000;
    const id = await insertCompetition(db, {
      title: 'Hamper </script><script>alert(1)</script>',
      endDate,
      ticketPricePence: 250,
    });
    const head = headOf(await (await get(`/competitions/${id}`)).text());
    const origin = /<link rel="canonical" href="([^"]+)\/competitions\/\d+" \/>/.exec(head)?.[1];
    expect(origin).toMatch(/^https?:\/\//);
    expect(head).toContain(`<link rel="canonical" href="${origin}/competitions/${id}" />`);
    expect(metaOf(head, 'og:type')).toBe('product');
    expect(metaOf(head, 'og:title')).toBe('Hamper &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(metaOf(head, 'og:description')).toContain('£2.50 a ticket');
    expect(metaOf(head, 'og:image')).toBe(`${origin}/api/competitions/${id}/share-image.jpg`);
    expect(metaOf(head, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(head, 'product:price:currency')).toBe('GBP');
    // The title cannot close the JSON-LD script: only the page's own scripts open one.
    expect(head.match(/<script/g)).toHaveLength(2);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(head)![1]!;
    expect(ld).not.toContain('<');
    expect(JSON.parse(ld)).toMatchObject({
      '@type': 'Product',
      name: 'Hamper </script><script>alert(1)</script>',
      offers: {
        '@type': 'Offer',
        price: '2.50',
        priceCurrency: 'GBP',
        availability: 'https://schema.org/InStock',
        validThrough: new Date(endDate).toISOString(),
      },
    });

    // The picture: a 1200×630 JPEG (the prize's, or the site's card when it cannot be read).
    const picture = await get(`/api/competitions/${id}/share-image.jpg`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    const { width, height, format } = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'jpeg' });
    expect((await get(`/api/competitions/${ids.archived}/share-image.jpg`)).status).toBe(404);
  });

  it('the home page carries its link preview and its 1200×630 picture', async () => {
    const head = headOf(await (await get('/')).text());
    expect(metaOf(head, 'og:type')).toBe('website');
    expect(head).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/" \/>/);
    expect(metaOf(head, 'og:image')).toMatch(/\/api\/share-image\.jpg$/);
    const picture = await get('/api/share-image.jpg');
    const { width, height } = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect({ status: picture.status, width, height }).toEqual({ status: 200, width: 1200, height: 630 });
  });

  it('serves the app shell for every other page, spelling, missing competition and signed-in person', async () => {
    for (const [p, status] of [
      ['/about', 200],
      ['/competitions', 200],
      [`/Competition/${ids.active}`, 200],
      [`/competition/${ids.active}/`, 200],
      [`/competition/${ids.archived}`, 404],
      ['/competition/999999', 404],
      ['/competition/abc', 404],
    ] as const) {
      const res = await get(p);
      expect(res.status, p).toBe(status);
      expect(await res.text(), p).toBe(SHELL);
    }
    const { client } = await registeredClient(server.url);
    for (const p of ['/', `/competition/${ids.active}`]) {
      const res = await client.get(p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).toBe(SHELL);
    }
  });

  it('serves the app shell when the render fails, and never serves the renderer', async () => {
    const res = await get('/?boom');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SHELL);
    for (const p of ['/ssr/entry-server.js', '/ssr/']) expect((await get(p)).status, p).toBe(404);
  });
});
