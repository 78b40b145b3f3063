import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { PAGE_SEED_ID, type PageSeed, scriptJson } from '../../contract/pageSeed';
import type { SeededPage } from './pageSeed';

/** Where a build keeps its server renderer, from the build's root (scripts/build.ts writes it). */
export const SSR_DIR = 'ssr';
export const SSR_ENTRY = 'entry-server.js';

/** What web/entry-server.tsx exports. */
interface Renderer {
  render(url: string, seed: PageSeed): Promise<{ html: string; styles: string }>;
}

interface LoadedBuild {
  renderer: Renderer;
  /** The build's index.html. */
  shell: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The app shell with the server's render in it: the styles in <head> (before any content, so it
 * paints styled), the markup in #root, the page's title, and the seed after the markup (the content
 * arrives first; the scripts that read it run once the document is parsed).
 */
export function assemblePage(shell: string, page: SeededPage, html: string, styles: string): string {
  const root = '<div id="root"></div>';
  if (!shell.includes(root) || !shell.includes('</head>')) throw new Error('index.html has no empty #root');
  const seed = `<script id="${PAGE_SEED_ID}" type="application/json">${scriptJson(page.seed)}</script>`;
  return shell
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
    .replace('</head>', () => `${page.head ?? ''}${styles}</head>`)
    .replace(root, () => `<div id="root">${html}</div>${seed}`);
}

export interface ServerRenderOptions {
  /** The served build (dist/web, a symlink to the build swapped in last). */
  webRoot: string;
  logger: Logger;
  /** The page's data, or undefined for a page the server does not render (api/pages/pageSeed.ts). */
  seedFor: (ctx: Context) => Promise<SeededPage | undefined>;
}

/**
 * The server-rendered HTML of the request's page, or undefined: for a page it does not render, for a
 * build without a renderer, and on any error (logged), so that the caller serves the app shell as
 * for every other page and the browser renders the page itself. The renderer is loaded from the
 * build that is live at the request (the one whose client the page's scripts come from).
 */
export function serverRender({ webRoot, logger, seedFor }: ServerRenderOptions) {
  const builds = new Map<string, Promise<LoadedBuild>>();

  async function load(): Promise<LoadedBuild | undefined> {
    const build = await fs.promises.realpath(webRoot);
    const entry = path.join(build, SSR_DIR, SSR_ENTRY);
    let loading = builds.get(build);
    if (!loading) {
      if (!fs.existsSync(entry)) return undefined;
      loading = (async () => ({
        renderer: (await import(pathToFileURL(entry).href)) as Renderer,
        shell: await fs.promises.readFile(path.join(build, 'index.html'), 'utf8'),
      }))();
      // A failed load is tried again by the next request, not remembered.
      loading.catch(() => builds.delete(build));
      builds.set(build, loading);
      // The build before the swap stays loaded for pages already on their way; older ones go.
      while (builds.size > 2) builds.delete(builds.keys().next().value!);
    }
    return loading;
  }

  return async (ctx: Context): Promise<string | undefined> => {
    try {
      const page = await seedFor(ctx);
      if (!page) return undefined;
      const build = await load();
      if (!build) return undefined;
      const { html, styles } = await build.renderer.render(ctx.url, page.seed);
      return assemblePage(build.shell, page, html, styles);
    } catch (err) {
      logger.error({ err, path: ctx.path }, 'server rendering failed: the page is served as the app shell');
      return undefined;
    }
  };
}
