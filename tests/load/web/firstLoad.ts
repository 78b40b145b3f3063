// The JavaScript a browser must fetch before the home page can run, gzipped: what issue 20's
// "first-load JS <= 120 KB gz" measures. Read from a production build's files, not from a browser,
// so it is exact and the same on any machine (docs/performance.md#first-load).
//
//   npx tsx tests/load/web/firstLoad.ts [distDir] [--json FILE]
//
// prints the files and the total (distDir defaults to dist/web, what `npm run build` made) and,
// with --json, writes the `first-load-js-gzip` scenario into the bench report.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { parseAst } from 'vite';
import { jsonTarget, type Scenario, writeScenarios } from '../report';

export interface FirstLoadFile {
  /** Path under the build folder, e.g. `assets/index-Ab12.js`. */
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface FirstLoad {
  /** Sum of `files[].gzipBytes`. */
  bytes: number;
  files: FirstLoadFile[];
}

/** The same level scripts/build.ts precompresses with, so the figure is what the server sends. */
export const gzipSize = (data: Buffer | string): number =>
  zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION }).length;

/** An absolute (`/assets/x.js`) or relative URL inside the build, as a path under distDir. */
function resolveInBuild(distDir: string, from: string, url: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return null; // another origin
  const clean = url.split(/[?#]/)[0] ?? '';
  const target = clean.startsWith('/') ? path.join(distDir, clean) : path.join(path.dirname(from), clean);
  return path.relative(distDir, target);
}

/** The `src` of module scripts and the `href` of modulepreload links in the HTML page. */
export function entryUrls(html: string): string[] {
  const urls: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1];
    if (tag.toLowerCase().startsWith('<script') && attr('type') === 'module' && attr('src'))
      urls.push(attr('src') as string);
    if (tag.toLowerCase().startsWith('<link') && attr('rel')?.split(/\s+/).includes('modulepreload'))
      urls.push(attr('href') as string);
  }
  return urls;
}

/** The modules a chunk imports statically (fetched before it runs); dynamic import() is not. */
export function staticImports(code: string): string[] {
  const sources: string[] = [];
  for (const node of parseAst(code).body) {
    if (
      (node.type === 'ImportDeclaration' ||
        node.type === 'ExportAllDeclaration' ||
        node.type === 'ExportNamedDeclaration') &&
      node.source &&
      typeof node.source.value === 'string'
    ) {
      sources.push(node.source.value);
    }
  }
  return sources;
}

/**
 * Every JS file the built index.html makes the browser fetch before the page runs: its module
 * scripts and modulepreload links, and everything those import statically, each counted once.
 */
export async function firstLoadJsGzip(distDir: string): Promise<FirstLoad> {
  const indexFile = path.join(distDir, 'index.html');
  const html = await fs.promises.readFile(indexFile, 'utf8');
  const seen = new Set<string>();
  const queue = entryUrls(html)
    .map((url) => resolveInBuild(distDir, indexFile, url))
    .filter((f): f is string => f !== null);
  const files: FirstLoadFile[] = [];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const full = path.join(distDir, file);
    const code = await fs.promises.readFile(full);
    files.push({ file, bytes: code.length, gzipBytes: gzipSize(code) });
    for (const imported of staticImports(code.toString('utf8'))) {
      const next = resolveInBuild(distDir, full, imported);
      if (next !== null) queue.push(next);
    }
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { bytes: files.reduce((sum, f) => sum + f.gzipBytes, 0), files };
}

/** The bench report's scenario (absolute target: 120 KB, no same-run baseline). */
export const firstLoadScenario = (load: FirstLoad): Scenario => ({
  name: 'first-load-js-gzip',
  value: load.bytes,
  unit: 'bytes',
  baseline: null,
});

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(args: string[]) {
  const json = jsonTarget(args);
  const distDir = path.resolve(
    args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--json') ?? 'dist/web',
  );
  const load = await firstLoadJsGzip(distDir);
  const rows = load.files.map((f) => `| ${f.file} | ${kb(f.bytes)} | ${kb(f.gzipBytes)} |`);
  console.info(
    [
      `First-load JS of ${distDir} (gzip -9):\n`,
      '| file | bytes | gzip |',
      '|---|---:|---:|',
      ...rows,
      `| **total** | | **${kb(load.bytes)}** (${load.bytes} bytes) |`,
    ].join('\n'),
  );
  if (json) writeScenarios(json, [firstLoadScenario(load)]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
