// `npm run build` (and so `npm start`): builds the client into a folder of its own, then swaps it
// in whole, so a server answering during a rebuild never serves a half-written bundle.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

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

async function main() {
  const { build } = await import('vite');
  await publishBuild(path.join(ROOT, 'dist'), async (outDir) => {
    await build({ configFile: path.join(ROOT, 'vite.config.ts'), build: { outDir, emptyOutDir: true } });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
