import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layering (docs/architecture.md#layers), read from the import statements: no import circles
// (the objection models' relation mappings in db/models excepted), presenters call nothing, every
// api domain imports only from domains to its left, and top-level folders import only downwards.

const ROOT = path.resolve(__dirname, '../..');
const ORDER = [
  'platform',
  'http',
  'tickets',
  'catalogue',
  'draws',
  'accounts',
  'payments',
  'orders',
  'pages',
];

function sourceFiles(dir: string, exts = ['.ts']): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p, exts) : exts.some((x) => e.name.endsWith(x)) ? [p] : [];
  });
}

/** Repository-relative paths of the files a module imports (relative specifiers only). */
function importsOf(file: string, { values = false } = {}): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(?:([^'"]*?)from\s+)?'(\.[^']+)'/gm)]
    .filter((m) => !(values && m[1]?.startsWith('type ')))
    .map((m) => path.relative(ROOT, path.resolve(path.dirname(file), m[2]!)));
}

const domainOf = (rel: string) => {
  const [top, domain] = rel.split(path.sep);
  return top === 'api' && ORDER.includes(domain!) ? domain! : null;
};

// The e-mail templates are .tsx (React Email): they obey the same rules as the .ts modules.
const SERVER_EXTS = ['.ts', '.tsx'];
const apiFiles = sourceFiles(path.join(ROOT, 'api'), SERVER_EXTS);

/** The first import circle found among `files`, as a list of paths, or null. */
function findCircle(files: string[]): string[] | null {
  const rel = new Set(files.map((f) => path.relative(ROOT, f).replace(/\.tsx?$/, '')));
  const edges = new Map(
    files.map((f) => [path.relative(ROOT, f).replace(/\.tsx?$/, ''), importsOf(f).filter((t) => rel.has(t))]),
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
  it('has no import circles among the server modules and scripts', () => {
    const files = ['api', 'fastpaths', 'realtime', 'server', 'contract', 'scripts'].flatMap((d) =>
      sourceFiles(path.join(ROOT, d), SERVER_EXTS),
    );
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

  it('e-mail templates take their data as props: values only from contract/ and the e-mail layout', () => {
    const emailDir = path.join('api', 'platform', 'email');
    const templates = sourceFiles(path.join(ROOT, emailDir, 'templates'), SERVER_EXTS);
    expect(templates.length).toBeGreaterThan(2);
    const offending = templates.flatMap((f) =>
      importsOf(f, { values: true })
        .filter((to) => !to.startsWith(`contract${path.sep}`) && !to.startsWith(emailDir + path.sep))
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`),
    );
    expect(offending).toEqual([]);
  });

  it('every api domain imports only from domains to its left', () => {
    const offending = apiFiles.flatMap((f) => {
      const from = domainOf(path.relative(ROOT, f));
      if (!from) return [];
      return importsOf(f)
        .filter((to) => {
          const target = domainOf(to);
          return target !== null && ORDER.indexOf(target) > ORDER.indexOf(from);
        })
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`);
    });
    expect(offending).toEqual([]);
  });

  it('top-level folders import only downwards: contract <- db <- fastpaths <- api <- realtime <- server, web <- contract', () => {
    // What each top-level folder may import besides itself (knexfile.ts sits with db).
    const allowed: Record<string, string[]> = {
      contract: [],
      db: ['contract', 'knexfile.ts'],
      fastpaths: ['db', 'knexfile.ts'],
      api: ['contract', 'db', 'fastpaths', 'knexfile.ts'],
      realtime: ['contract', 'db', 'fastpaths', 'api', 'knexfile.ts'],
      server: ['contract', 'db', 'fastpaths', 'api', 'realtime', 'knexfile.ts'],
      web: ['contract'],
    };
    const offending = Object.entries(allowed).flatMap(([top, may]) =>
      sourceFiles(path.join(ROOT, top), ['.ts', '.tsx']).flatMap((f) =>
        importsOf(f)
          .filter((to) => {
            const target = to.split(path.sep)[0]!.replace(/^knexfile$/, 'knexfile.ts');
            return target !== top && !may.includes(target);
          })
          .map((to) => `${path.relative(ROOT, f)} -> ${to}`),
      ),
    );
    expect(offending).toEqual([]);
  });

  it('realtime uses the domains, never the HTTP app (api/app.ts, api/http)', () => {
    const offending = sourceFiles(path.join(ROOT, 'realtime')).flatMap((f) =>
      importsOf(f)
        .filter((to) => to === path.join('api', 'app') || to.startsWith(path.join('api', 'http') + path.sep))
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`),
    );
    expect(offending).toEqual([]);
  });

  it("the browser's socket module is plain transport: web/live imports no store", () => {
    const offending = sourceFiles(path.join(ROOT, 'web', 'live'), ['.ts', '.tsx']).flatMap((f) =>
      importsOf(f)
        .filter((to) => to.startsWith(path.join('web', 'stores') + path.sep))
        .map((to) => `${path.relative(ROOT, f)} -> ${to}`),
    );
    expect(offending).toEqual([]);
  });

  it('no flat folder in api/ holds more than 12 files', () => {
    const crowded = (dir: string): string[] => {
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      const files = entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).length;
      return [
        ...(files > 12 ? [`${path.relative(ROOT, dir)}: ${files}`] : []),
        ...entries.filter((e) => e.isDirectory()).flatMap((e) => crowded(path.join(dir, e.name))),
      ];
    };
    expect(crowded(path.join(ROOT, 'api'))).toEqual([]);
  });
});
