import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { publishBuild } from '../../scripts/build';

// `npm run build` swaps each build in whole (#16.8): a reader that keeps loading the page and the
// bundle it names, as a browser does, never finds a missing or half-written file mid-rebuild.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let dist: string;
afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

/** A build that writes its files slowly, bundle in pieces, like a real one over a few seconds. */
const slowBuild = (release: number) => async (outDir: string) => {
  fs.mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  const bundle = path.join(outDir, 'assets', `index-${release}.js`);
  for (let part = 0; part < 5; part++) {
    fs.appendFileSync(bundle, `/* part ${part} */`);
    await sleep(5);
  }
  fs.appendFileSync(bundle, `/* release ${release} complete */`);
  fs.writeFileSync(path.join(outDir, 'index.html'), `<script src="/assets/index-${release}.js"></script>`);
};

describe('publishBuild', () => {
  it('serves the old build whole until the new one is swapped in whole', async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-dist-'));
    await publishBuild(dist, slowBuild(0));
    const web = path.join(dist, 'web');
    const problems: string[] = [];
    const seen = new Set<string>();
    let building = true;
    const reader = (async () => {
      while (building) {
        try {
          const html = fs.readFileSync(path.join(web, 'index.html'), 'utf8');
          const src = /src="\/(assets\/index-(\d+)\.js)"/.exec(html);
          if (!src) problems.push(`index.html without its script: ${html}`);
          else {
            const js = fs.readFileSync(path.join(web, src[1]!), 'utf8');
            if (!js.endsWith(`/* release ${src[2]} complete */`)) problems.push(`half-written ${src[1]}`);
            seen.add(src[2]!);
          }
        } catch (err) {
          problems.push((err as Error).message);
        }
        await sleep(1);
      }
    })();
    for (let release = 1; release <= 4; release++) await publishBuild(dist, slowBuild(release));
    building = false;
    await reader;
    expect(problems).toEqual([]);
    expect(seen.size).toBeGreaterThan(1);
    expect(fs.readFileSync(path.join(web, 'index.html'), 'utf8')).toContain('index-4.js');
    // The live build and the one before it are kept (pages loaded just before a swap still get
    // their chunks); older ones are removed.
    expect(fs.readdirSync(path.join(dist, 'builds'))).toHaveLength(2);
  });

  it('leaves the live build alone when a build fails', async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-dist-'));
    await publishBuild(dist, slowBuild(1));
    await expect(
      publishBuild(dist, async (outDir) => {
        fs.mkdirSync(outDir, { recursive: true });
        fs.writeFileSync(path.join(outDir, 'index.html'), 'broken');
        throw new Error('syntax error');
      }),
    ).rejects.toThrow('syntax error');
    expect(fs.readFileSync(path.join(dist, 'web', 'index.html'), 'utf8')).toContain('index-1.js');
    expect(fs.readdirSync(path.join(dist, 'builds'))).toHaveLength(1);
  });

  it('replaces a build folder left by the old layout (a real dist/web)', async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-dist-'));
    fs.mkdirSync(path.join(dist, 'web'));
    fs.writeFileSync(path.join(dist, 'web', 'index.html'), 'old layout');
    await publishBuild(dist, slowBuild(2));
    expect(fs.lstatSync(path.join(dist, 'web')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dist, 'web', 'index.html'), 'utf8')).toContain('index-2.js');
  });
});
