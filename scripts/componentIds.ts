// A Vite plugin that names every styled component after where it is declared, so the class names
// the server renders (the SSR bundle, web/entry-server.tsx) are the ones the browser hydrates.
// Without the Babel plugin (plugin-react 6 has no Babel step), styled-components v6 names a
// component from a global counter ('sc' + how many components were created before it), which
// depends on the order modules are evaluated: the SSR bundle evaluates every page at start, the
// browser evaluates the lazily loaded pages when it first visits them, so the counters differ and
// every class name after the first difference would mismatch.

import { createHash } from 'node:crypto';
import path from 'node:path';
import { type ESTree, type Plugin, parseSync } from 'vite';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

/** Calls `visit` on every node under `node`, parents first. */
function walk(node: Node, visit: (node: Node) => void) {
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, visit);
    } else if (isNode(value)) walk(value, visit);
  }
}

/**
 * Whether `tag` (a tagged template's tag) creates a styled component: `styled.div`, `styled(X)`,
 * either followed by `.attrs(...)`. Null when it already names itself (`.withConfig(...)`).
 */
function isStyledTag(tag: Node, styled: Set<string>): boolean | null {
  if (tag.type === 'MemberExpression') {
    const object = tag.object as Node;
    return object.type === 'Identifier' && styled.has(object.name as string);
  }
  if (tag.type === 'CallExpression') {
    const callee = tag.callee as Node;
    if (callee.type === 'Identifier') return styled.has(callee.name as string);
    if (callee.type === 'MemberExpression') {
      const property = callee.property as Node;
      const name = property.type === 'Identifier' ? (property.name as string) : undefined;
      if (name === 'withConfig') return isStyledTag(callee.object as Node, styled) === true ? null : false;
      if (name === 'attrs') return isStyledTag(callee.object as Node, styled);
    }
  }
  return false;
}

/** The id of the `ordinal`-th styled component (0-based) of the module `moduleKey`. */
export function componentIdFor(moduleKey: string, ordinal: number): string {
  const hash = createHash('sha256').update(`${moduleKey}#${ordinal}`).digest('hex').slice(0, 10);
  return `sc-${hash}`;
}

/**
 * `code` with `.withConfig({ componentId })` after the tag of every styled component it declares
 * (`styled.div`...``, `styled(Link)`...``, with or without `.attrs(...)`), numbered in source
 * order; null when it declares none. `moduleKey` names the module the same way in every build (its
 * path from the project's root). `lang` is how to parse it.
 */
export function addComponentIds(
  code: string,
  moduleKey: string,
  lang: 'js' | 'jsx' | 'ts' | 'tsx' = 'js',
): string | null {
  if (!code.includes('styled-components')) return null;
  const { program } = parseSync(`module.${lang}`, code, { lang, sourceType: 'module' });
  const styled = new Set<string>();
  for (const statement of program.body as ESTree.Statement[]) {
    if (statement.type !== 'ImportDeclaration' || statement.source.value !== 'styled-components') continue;
    for (const s of statement.specifiers) {
      if (s.type === 'ImportDefaultSpecifier') styled.add(s.local.name);
      else if (
        s.type === 'ImportSpecifier' &&
        s.imported.type === 'Identifier' &&
        s.imported.name === 'default'
      )
        styled.add(s.local.name);
    }
  }
  if (styled.size === 0) return null;
  const ends: number[] = [];
  walk(program as unknown as Node, (node) => {
    if (node.type === 'TaggedTemplateExpression' && isStyledTag(node.tag as Node, styled))
      ends.push((node.tag as Node).end);
  });
  if (ends.length === 0) return null;
  ends.sort((a, b) => a - b);
  let out = code;
  for (let i = ends.length - 1; i >= 0; i--) {
    const at = ends[i]!;
    out = `${out.slice(0, at)}.withConfig({ componentId: ${JSON.stringify(componentIdFor(moduleKey, i))} })${out.slice(at)}`;
  }
  return out;
}

/**
 * The plugin: runs after TypeScript and JSX are compiled (no `enforce`), on the project's own
 * modules (not node_modules), in the client build, the SSR build and `npm run dev` alike.
 */
export function componentIds(): Plugin {
  let root = process.cwd();
  return {
    name: 'styled-component-ids',
    configResolved(config) {
      // The client's root is web/; the key is the path from the repository (the folder above).
      root = path.dirname(config.root);
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (file.includes('/node_modules/') || !/\.[cm]?[jt]sx?$/.test(file)) return null;
      const key = path.relative(root, file).split(path.sep).join('/');
      const out = addComponentIds(code, key);
      return out === null ? null : { code: out, map: null };
    },
  };
}
