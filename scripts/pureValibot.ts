// A Vite plugin that keeps unused valibot schemas out of the client bundle.
//
// valibot marks its schema builders `/* @__NO_SIDE_EFFECTS__ */`, so `export const X = v.object(...)`
// that nothing uses should vanish. Rolldown (Vite 8) honours that only while the caller and valibot
// end up in the same chunk: once valibot is a shared chunk, every unused schema call stays, and
// keeps alive the contract modules its arguments name (rolldown issue #9956). The home page then
// ran the draw, instant-win and beacon schemas of contract/competitions.ts for one constant.
// This plugin writes the same promise at each call site instead (`/* @__PURE__ */ v.object(...)`),
// which survives chunking, for exactly the functions valibot itself annotates, and only for calls
// through a namespace import of valibot (`import * as v from 'valibot'`, the project's style).

import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

/** The export names valibot annotates `@__NO_SIDE_EFFECTS__` in its own build. */
export function valibotPureExports(source: string): Set<string> {
  const names = new Set<string>();
  for (const [, name] of source.matchAll(
    /\/\*\s*@__NO_SIDE_EFFECTS__\s*\*\/\s*(?:async\s+)?function\s+([\w$]+)/g,
  )) {
    // Reserved words are declared with a trailing underscore and exported without it (enum_).
    if (name) names.add(name.replace(/_$/, ''));
  }
  return names;
}

interface Node {
  type: string;
  start: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** Offsets of calls `<ns>.<name>(...)` where `name` is pure, anywhere in the tree. */
function pureCallStarts(root: Node, namespaces: Set<string>, pure: Set<string>): number[] {
  const starts: number[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    if (!isNode(value)) continue;
    if (value.type === 'CallExpression') {
      const callee = value.callee as Node;
      const object = callee.object as Node | undefined;
      const property = callee.property as Node | undefined;
      if (
        callee.type === 'MemberExpression' &&
        !callee.computed &&
        object?.type === 'Identifier' &&
        namespaces.has(object.name as string) &&
        property?.type === 'Identifier' &&
        pure.has(property.name as string)
      ) {
        starts.push(value.start);
      }
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== 'type' && typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return starts;
}

export function pureValibot(): Plugin {
  const require = createRequire(import.meta.url);
  const pure = valibotPureExports(fs.readFileSync(require.resolve('valibot'), 'utf8'));
  return {
    name: 'pure-valibot',
    apply: 'build',
    // After TypeScript and JSX are compiled away, so the code parses as plain JavaScript.
    enforce: 'post',
    transform(code, id) {
      if (id.includes('/node_modules/') || !code.includes('valibot')) return null;
      const ast = this.parse(code) as unknown as Node;
      const namespaces = new Set<string>();
      for (const node of ast.body as Node[]) {
        if (node.type !== 'ImportDeclaration' || (node.source as Node).value !== 'valibot') continue;
        for (const spec of node.specifiers as Node[]) {
          if (spec.type === 'ImportNamespaceSpecifier') namespaces.add((spec.local as Node).name as string);
        }
      }
      if (namespaces.size === 0) return null;
      const starts = pureCallStarts(ast, namespaces, pure).sort((a, b) => b - a);
      if (starts.length === 0) return null;
      let out = code;
      for (const at of starts) out = `${out.slice(0, at)}/* @__PURE__ */ ${out.slice(at)}`;
      // Builds have no source maps (vite.config.ts), so none is needed here.
      return { code: out, map: null };
    },
  };
}
