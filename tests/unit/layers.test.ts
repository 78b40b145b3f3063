import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The server's layering (issue 14), read from the import statements: no import circles (the
// objection models' relation mappings in db/models excepted), presenters call nothing, and the
// catalogue, draws and accounts domains import only from domains to their left.

const ROOT = path.resolve(__dirname, '../..');
const ORDER = ['platform', 'http', 'catalogue', 'tickets', 'draws', 'accounts', 'payments', 'orders'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Repository-relative paths of the files a module imports (relative specifiers only). */
function importsOf(file: string, { values = false } = {}): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s([^'"]*?)from\s+'(\.[^']+)'/g)]
    .filter((m) => !(values && m[1]!.startsWith('type ')))
    .map((m) => path.relative(ROOT, path.resolve(path.dirname(file), m[2]!)));
}

const domainOf = (rel: string) => {
  const [top, domain] = rel.split(path.sep);
  return top === 'api' && ORDER.includes(domain!) ? domain! : null;
};

const apiFiles = sourceFiles(path.join(ROOT, 'api'));

/** The first import circle found among `files`, as a list of paths, or null. */
function findCircle(files: string[]): string[] | null {
  const rel = new Set(files.map((f) => path.relative(ROOT, f).replace(/\.ts$/, '')));
  const edges = new Map(
    files.map((f) => [path.relative(ROOT, f).replace(/\.ts$/, ''), importsOf(f).filter((t) => rel.has(t))]),
  );
  const done = new Set<string>();
  const visit = (node: string, trail: string[]): string[] | null => {
    if (trail.includes(node)) return [...trail.slice(trail.indexOf(node)), node];
    if (done.has(node)) return null;
    for (const next of edges.get(node) ?? []) {
      const circle = visit(next, [...trail, node]);
      if (circle) return circle;
    }
    done.add(node);
    return null;
  };
  for (const node of edges.keys()) {
    const circle = visit(node, []);
    if (circle) return circle;
  }
  return null;
}

describe('server layers', () => {
  it('has no import circles among the server modules', () => {
    const files = ['api', 'realtime', 'server', 'contract'].flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(findCircle(files)).toBeNull();
  });

  it('presenters call only contract/ and other presenters (types may come from anywhere)', () => {
    const presenters = apiFiles.filter((f) => /[pP]resenter\.ts$/.test(f));
    expect(presenters.length).toBeGreaterThan(3);
    const offending = presenters.flatMap((f) =>
      importsOf(f, { values: true })
        .filter((to) => !to.startsWith(`contract${path.sep}`) && !/[pP]resenter$/.test(to))
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`),
    );
    expect(offending).toEqual([]);
  });

  it('catalogue, draws and accounts import only from domains to their left', () => {
    const offending = apiFiles.flatMap((f) => {
      const from = domainOf(path.relative(ROOT, f));
      if (from !== 'catalogue' && from !== 'draws' && from !== 'accounts') return [];
      return importsOf(f)
        .filter((to) => {
          const target = domainOf(to);
          return target !== null && ORDER.indexOf(target) > ORDER.indexOf(from);
        })
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`);
    });
    // Known until the competition version and the live-tickets query have a home catalogue may
    // use: lowering a competition's size checks its taken numbers and bumps its version.
    const pending = ['api/catalogue/adminCompetitions.ts -> api/tickets/'];
    expect(offending.filter((o) => !pending.some((p) => o.startsWith(p)))).toEqual([]);
  });
});
