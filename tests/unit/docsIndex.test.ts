import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/sourceTree';

// A folder's README.md lists its modules, and those of its subfolders that have no README of
// their own. A module counts as listed when one line of the README names its file (`draws.ts`)
// and, for a module in a subfolder, that same line names the subfolder (`beacon/drawBeacon.ts`,
// or a `checkout/` row naming `pricing.ts`). The repository's own README.md and docs/ are not
// folder indexes.

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `readme` lists the module at `rel` (relative to the README's folder). */
function lists(readme: string, rel: string): boolean {
  const parts = rel.split(path.sep);
  const file = parts.at(-1)!;
  const parent = parts.at(-2);
  // A top-level module's name must not be another folder's file (`routes/auth.ts` is not `auth.ts`).
  const name = new RegExp(`(?<![\\w.${parent ? '' : '/'}-])${escapeRegExp(file)}(?![\\w])`);
  const folder = parent ? new RegExp(`(?<![\\w.-])${escapeRegExp(parent)}/`) : null;
  return readme.split('\n').some((line) => name.test(line) && (!folder || folder.test(line)));
}

// Installed, built or run-time folders (.gitignore).
const UNTRACKED = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report']);

function readmeFolders(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (!e.isDirectory() || e.name.startsWith('.') || UNTRACKED.has(e.name)) return [];
    const p = path.join(dir, e.name);
    return [...(fs.existsSync(path.join(p, 'README.md')) ? [p] : []), ...readmeFolders(p)];
  });
}

/** Each module of `dir` not listed in its README, as `folder/README.md: module`. */
function unlisted(dir: string, folders: Set<string>): string[] {
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  // The nearest folder with a README holds each module.
  const owned = sourceFiles(dir).filter((f) => {
    let d = path.dirname(f);
    while (!folders.has(d)) d = path.dirname(d);
    return d === dir;
  });
  return owned
    .map((f) => path.relative(dir, f))
    .filter((rel) => !lists(readme, rel))
    .map((rel) => `${path.relative(ROOT, dir)}/README.md: ${rel}`);
}

describe('folder READMEs', () => {
  const folders = readmeFolders(ROOT).filter((d) => path.relative(ROOT, d) !== 'docs');

  it('list every module of their folder', () => {
    expect(folders.length).toBeGreaterThan(10);
    const set = new Set(folders);
    expect(folders.flatMap((d) => unlisted(d, set))).toEqual([]);
  });

  it('name no module that is gone: each table row of a module names an existing file', () => {
    const stale = folders.flatMap((d) =>
      [...fs.readFileSync(path.join(d, 'README.md'), 'utf8').matchAll(/^\| `([^`]+\.tsx?)` \|/gm)]
        .filter((m) => !fs.existsSync(path.join(d, m[1]!)))
        .map((m) => `${path.relative(ROOT, d)}/README.md: ${m[1]}`),
    );
    expect(stale).toEqual([]);
  });

  it('count a module as listed only by its own name, and in a subfolder with that subfolder', () => {
    const readme = [
      '| `auth.ts` | Sign-in. |',
      '| `routes/` | `account.ts` (credit), `security.ts`. |',
      'The `beacon/drawBeacon.ts` module.',
      '`templates/` holds the e-mails.',
      'And `orders.tsx` is on another line.',
      'Nothing about xauthentication.ts or accounts.',
    ].join('\n');
    const listed = (rel: string) => lists(readme, rel.split('/').join(path.sep));
    expect(
      ['auth.ts', 'routes/account.ts', 'routes/security.ts', 'beacon/drawBeacon.ts'].filter(listed),
    ).toEqual(['auth.ts', 'routes/account.ts', 'routes/security.ts', 'beacon/drawBeacon.ts']);
    expect(
      ['routes/auth.ts', 'email/templates/orders.tsx', 'authentication.ts', 'accounts.ts'].filter(listed),
    ).toEqual([]);
  });
});
