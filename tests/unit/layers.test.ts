import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_FOLDERS, importsOf, moduleId, ROOT, sourceFiles } from '../support/sourceTree';

// The layering (docs/architecture.md#layers), read from the import statements with a real parser
// (static, re-exports and dynamic `import()`; `./models` is its index): no import circles (the
// objection models' relation mappings in db/models excepted), presenters call nothing, every api
// domain imports only from domains to its left, and top-level folders import only downwards.

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

const domainOf = (rel: string) => {
  const [top, domain] = rel.split(path.sep);
  return top === 'api' && ORDER.includes(domain!) ? domain! : null;
};

// The e-mail templates are .tsx (React Email): they obey the same rules as the .ts modules.
const SERVER_EXTS = ['.ts', '.tsx'];
const apiFiles = sourceFiles(path.join(ROOT, 'api'), SERVER_EXTS);

/**
 * Every import circle among `files`: each strongly connected group of modules (Tarjan), as one
 * circle through its first module (`a -> b -> a`).
 */
function findCircles(files: string[]): string[][] {
  const nodes = new Set(files.map(moduleId));
  const edges = new Map(files.map((f) => [moduleId(f), importsOf(f).filter((t) => nodes.has(t))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || edges.get(node)!.includes(node)) groups.push(group);
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return groups.map((group) => circleThrough(group, edges));
}

/** The shortest way from the group's first module back to itself, inside the group. */
function circleThrough(group: string[], edges: Map<string, string[]>): string[] {
  const [first] = [...group].sort();
  const cameFrom = new Map<string, string>();
  const queue = [first!];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of edges.get(node)!.filter((n) => group.includes(n))) {
      if (next === first) {
        const trail = [node];
        while (trail[0] !== first) trail.unshift(cameFrom.get(trail[0]!)!);
        return [...trail, first];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return group;
}

// The objection models name each other in their relation mappings (resolved lazily by objection).
const MODELS = `db${path.sep}models${path.sep}`;

describe('server layers', () => {
  it('has no import circles in the application code (but the objection models among themselves)', () => {
    const files = [
      ...APP_FOLDERS.flatMap((d) => sourceFiles(path.join(ROOT, d))),
      path.join(ROOT, 'knexfile.ts'),
    ];
    const circles = findCircles(files);
    expect(circles.some((c) => c.every((m) => m.startsWith(MODELS)))).toBe(true);
    const offending = circles.filter((c) => !c.every((m) => m.startsWith(MODELS))).map((c) => c.join(' -> '));
    expect(offending).toEqual([]);
  });

  it('finds a circle through an index file, a re-export and a dynamic import', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'circles-'));
    try {
      fs.mkdirSync(path.join(dir, 'b'));
      fs.writeFileSync(path.join(dir, 'a.ts'), "export * from './b';\n");
      fs.writeFileSync(path.join(dir, 'b', 'index.ts'), "export const c = () => import('../c');\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import type { c } from './a';\nexport type C = typeof c;\n");
      const id = (name: string) => moduleId(path.join(dir, name));
      expect(findCircles(sourceFiles(dir))).toEqual([[id('a'), id('b/index'), id('c'), id('a')]]);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
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
