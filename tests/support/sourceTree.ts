import fs from 'node:fs';
import path from 'node:path';
import { type ESTree, parseSync } from 'rolldown/utils';

// The application's source files read with a real TypeScript parser (oxc, through rolldown, which
// vite already runs), for the structure tests: layers, code size, the folder READMEs.

export const ROOT = path.resolve(__dirname, '../..');

/** Every folder of application code (tests/ is not one). */
export const APP_FOLDERS = ['api', 'realtime', 'db', 'server', 'web', 'contract', 'scripts', 'fastpaths'];

// Built or copied files, never written by hand.
const SKIPPED_DIRS = new Set(['node_modules', 'dist', path.join('web', 'public')]);

/** The .ts/.tsx files under `dir` (absolute paths), skipping built output and generated files. */
export function sourceFiles(dir: string, exts = ['.ts', '.tsx']): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const rel = path.relative(ROOT, p);
      return SKIPPED_DIRS.has(e.name) || SKIPPED_DIRS.has(rel) ? [] : sourceFiles(p, exts);
    }
    if (!exts.some((x) => e.name.endsWith(x))) return [];
    return isGenerated(fs.readFileSync(p, 'utf8')) ? [] : [p];
  });
}

/** A generator's output says so in its first lines (`@generated`); its size is not ours to keep. */
const isGenerated = (text: string) => text.slice(0, 500).includes('@generated');

export type Node = { type: string; start: number; end: number; [key: string]: unknown };

const parsed = new Map<string, ESTree.Program>();

/** The module's AST (cached when read from disk); throws with the parser's first error. */
export function parseFile(file: string, text?: string): ESTree.Program {
  const cached = text === undefined ? parsed.get(file) : undefined;
  if (cached) return cached;
  const result = parseSync(file, text ?? fs.readFileSync(file, 'utf8'));
  if (result.errors.length > 0) {
    throw new Error(`${path.relative(ROOT, file)}: ${result.errors[0]!.message}`);
  }
  if (text === undefined) parsed.set(file, result.program);
  return result.program;
}

/** Calls `visit` for every node under `node`, with its parent. */
export function walk(
  node: unknown,
  visit: (node: Node, parent: Node | null) => void,
  parent: Node | null = null,
) {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, parent);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'parent' && value && typeof value === 'object') walk(value, visit, node as Node);
  }
}

/** 1-based line of each offset in `text`. */
export function lineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/**
 * The file a relative specifier names, repository-relative and without its .ts/.tsx ending
 * (`./models` -> `db/models/index`); null for a package.
 */
export function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  const found = candidates.find((c) => fs.existsSync(c));
  return path.relative(ROOT, found ?? base).replace(/\.tsx?$/, '');
}

/**
 * Repository-relative paths (without .ts/.tsx) of the project modules a file imports or re-exports,
 * dynamic `import()` included. With `values`, type-only imports and exports are left out.
 */
export function importsOf(file: string, { values = false } = {}): string[] {
  const specifiers: string[] = [];
  walk(parseFile(file), (node) => {
    const source = (node as { source?: { type?: string; value?: unknown } }).source;
    if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
    const typeOnly = node.importKind === 'type' || node.exportKind === 'type';
    if (
      (node.type === 'ImportDeclaration' ||
        node.type === 'ExportNamedDeclaration' ||
        node.type === 'ExportAllDeclaration' ||
        node.type === 'ImportExpression') &&
      !(values && typeOnly)
    ) {
      specifiers.push(source.value);
    }
  });
  return specifiers.flatMap((s) => resolveSpecifier(file, s) ?? []);
}

/** Repository-relative path of a file, without its .ts/.tsx ending. */
export const moduleId = (file: string) => path.relative(ROOT, file).replace(/\.tsx?$/, '');
