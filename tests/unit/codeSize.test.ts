import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_FOLDERS, lineOf, type Node, parseFile, ROOT, sourceFiles, walk } from '../support/sourceTree';

// Small modules (docs/architecture.md#layers): no file in api/ or realtime/ over 450 lines, and no
// function anywhere in the application code over 120 lines, counted from its first line to its
// last, nested functions included (a React component is a function). Long copy, such as legal
// text, lives as content data beside the component, not inside it.

const MAX_FILE_LINES = 450;
const MAX_FUNCTION_LINES = 120;

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

type Span = { name: string; line: number; lines: number };

const keyName = (key: unknown) => {
  const k = key as { type?: string; name?: string; value?: unknown } | undefined;
  return k?.type === 'Identifier' || k?.type === 'PrivateIdentifier' ? k.name : String(k?.value ?? '');
};

/** Every function, method and arrow in `text`, with its first line and its length in lines. */
function functionSpans(file: string, text: string): Span[] {
  const line = lineOf(text);
  const spans: Span[] = [];
  walk(parseFile(file, text), (node, parent) => {
    if (!FUNCTION_TYPES.has(node.type)) return;
    // A method's function starts at its parameters: measure from the method's name.
    const owner: Node = parent?.type === 'MethodDefinition' || parent?.type === 'Property' ? parent : node;
    const id = node.id as { name?: string } | null | undefined;
    const name =
      id?.name ??
      (parent?.type === 'VariableDeclarator' ? keyName(parent.id) : undefined) ??
      (owner !== node ? keyName(owner.key) : undefined) ??
      '(anonymous)';
    const first = line(owner.start);
    spans.push({ name: name || '(anonymous)', line: first, lines: line(node.end) - first + 1 });
  });
  return spans;
}

/** `file:line name (N lines)` for each function longer than `max` lines. */
function longFunctions(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  return functionSpans(file, text)
    .filter((s) => s.lines > max)
    .map((s) => `${path.relative(ROOT, file)}:${s.line} ${s.name} (${s.lines} lines)`);
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('code size', () => {
  it(`no file in api/ or realtime/ has more than ${MAX_FILE_LINES} lines`, () => {
    const offending = ['api', 'realtime']
      .flatMap((d) => sourceFiles(path.join(ROOT, d)))
      .map((f) => ({ f, lines: lineCount(fs.readFileSync(f, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ f, lines }) => `${path.relative(ROOT, f)}:1 (${lines} lines)`);
    expect(offending, `files over ${MAX_FILE_LINES} lines: split them along their seams`).toEqual([]);
  });

  it(`no function in the application code has more than ${MAX_FUNCTION_LINES} lines`, () => {
    const files = APP_FOLDERS.flatMap((d) => sourceFiles(path.join(ROOT, d)));
    expect(files.length).toBeGreaterThan(400);
    const offending = files.flatMap((f) => longFunctions(f, fs.readFileSync(f, 'utf8')));
    expect(offending, `functions over ${MAX_FUNCTION_LINES} lines: split them`).toEqual([]);
  });

  describe('the measuring itself', () => {
    // `open`, then `n` filler lines, then `close`.
    const block = (open: string, n: number, close: string) =>
      [open, ...Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`), close].join('\n');

    it('reports a 121-line function with its file, line, name and length, and passes one of 120', () => {
      const text = [
        '// a fixture',
        block('function tooLong() {', 119, '}'),
        block('function justRight() {', 118, '}'),
      ].join('\n');
      expect(longFunctions(path.join(ROOT, 'fixture.ts'), text)).toEqual([
        'fixture.ts:2 tooLong (121 lines)',
      ]);
    });

    it('measures arrow functions, function expressions, methods and components from first to last line', () => {
      const text = [
        block('const arrow = (a: number): void => {', 10, '};'),
        block('const expression = function () {', 10, '};'),
        block('class Service {\n  method(): void {', 10, '  }\n}'),
        block('const object = {\n  shorthand() {', 10, '  },\n};'),
        // The component runs from `export function` to its closing brace: 3 + 10 + 3 lines.
        block('export function Page() {\n  return (\n    <div>', 10, '    </div>\n  );\n}'),
      ].join('\n');
      const spans = functionSpans(path.join(ROOT, 'fixture.tsx'), text).map(
        (s) => `${s.name}:${s.line} ${s.lines}`,
      );
      expect(spans).toEqual([
        'arrow:1 12',
        'expression:13 12',
        'method:26 12',
        'shorthand:40 12',
        'Page:53 16',
      ]);
    });

    it('counts a nested function inside its outer function as well as on its own', () => {
      const text = block('function outer() {\n  const inner = () => {', 10, '  };\n}');
      const spans = functionSpans(path.join(ROOT, 'nested.ts'), text).map((s) => `${s.name} ${s.lines}`);
      expect(spans).toEqual(['outer 14', 'inner 12']);
    });
  });
});
