// `npm run build` (and so `npm start`): builds the client into a folder of its own, then swaps it
// in whole, so a server answering during a rebuild never serves a half-written bundle.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { SSR_DIR, SSR_ENTRY } from '../api/pages/serverRender';

const ROOT = path.resolve(import.meta.dirname, '..');
const TEMP_PREFIX = '.building-';

/**
 * Builds into `<dist>/builds/<id>`, then points `<dist>/web` at it by renaming a new symlink over
 * the old one (one atomic rename: every request sees the old build or the new one, whole). The
 * previous build is kept, so a page loaded just before the swap can still fetch its chunks; older
 * ones are removed.
 */
export async function publishBuild(dist: string, build: (outDir: string) => Promise<void>): Promise<string> {
  const builds = path.join(dist, 'builds');
  fs.mkdirSync(builds, { recursive: true });
  const id = `${Date.now()}-${process.pid}`;
  // Written under a temporary name, which the clean-up below leaves alone (another build may be
  // writing its own), then renamed once complete.
  const working = path.join(builds, `${TEMP_PREFIX}${id}`);
  try {
    await build(working);
  } catch (err) {
    fs.rmSync(working, { recursive: true, force: true });
    throw err;
  }
  const outDir = path.join(builds, id);
  fs.renameSync(working, outDir);
  const live = path.join(dist, 'web');
  // A real folder from before this layout cannot be renamed over: move it aside once.
  if (fs.existsSync(live) && !fs.lstatSync(live).isSymbolicLink()) {
    fs.renameSync(live, path.join(builds, `0-legacy-${id}`));
  }
  const previous = fs.existsSync(live) ? path.basename(fs.readlinkSync(live)) : undefined;
  const next = path.join(dist, `web.next-${id}`);
  fs.symlinkSync(path.join('builds', id), next, 'dir');
  fs.renameSync(next, live);
  for (const old of fs.readdirSync(builds)) {
    if (old !== id && old !== previous && !old.startsWith(TEMP_PREFIX))
      fs.rmSync(path.join(builds, old), { recursive: true, force: true });
  }
  return outDir;
}

/** Files served as text, worth sending compressed. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file under `dir`, at the highest levels
 * (done once per build, so the server never compresses these per request; see
 * api/http/staticSite.ts). A copy that would not be smaller is not written.
 */
export async function precompress(dir: string): Promise<number> {
  let written = 0;
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => COMPRESSIBLE.test(f));
  await Promise.all(
    files.map(async (name) => {
      const file = path.join(dir, name);
      const data = fs.readFileSync(file);
      if (data.length < MIN_COMPRESS_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [ext, copy] of [
        ['.br', br],
        ['.gz', gz],
      ] as const) {
        if (copy.length >= data.length) continue;
        fs.writeFileSync(file + ext, copy);
        written++;
      }
    }),
  );
  return written;
}

/**
 * A production build of the client into `outDir`, precompressed, and of its server renderer into
 * `outDir/ssr/` (web/entry-server.tsx for Node): inside the build, so it is swapped in with the
 * client it renders for; never served (api/http/staticSite.ts answers 404 under /ssr/). NODE_ENV is forced to production for the build: Vite keeps any other value it
 * finds (the browser tests' server runs with NODE_ENV=test), and React and the JSX transform would
 * then ship their development builds, slower and 60 KB gzip heavier.
 */
export async function buildClient(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: path.join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true },
    });
    await precompress(outDir);
    // The same configuration (the same plugins, so the same styled-component ids), for Node: one
    // file (every lazily loaded page inlined, the server renders them all), libraries left to
    // node_modules.
    await build({
      configFile: path.join(ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      // Every library bundled in, React's production code included whatever NODE_ENV the server
      // runs with (as in the client build; the browser tests' server runs with NODE_ENV=test, and
      // React's development build renders several times slower). Bundling also takes
      // styled-components from its ES module build: its `main` is CommonJS, whose default import
      // Node does not unwrap.
      ssr: { noExternal: true },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        ssr: path.join(ROOT, 'web/entry-server.tsx'),
        outDir: path.join(outDir, SSR_DIR),
        emptyOutDir: true,
        copyPublicDir: false,
        rolldownOptions: { output: { codeSplitting: false, entryFileNames: SSR_ENTRY } },
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

async function main() {
  const outDir = await publishBuild(path.join(ROOT, 'dist'), buildClient);
  console.info(`Built the client into ${path.relative(ROOT, outDir)} (dist/web)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
