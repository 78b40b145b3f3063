import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 34, "No wall clock": a test waits for a condition (waitFor), shows that nothing arrived
// with an acknowledged round trip (barrier in tests/support/sockets.ts), or fakes the clock; it
// never sleeps a fixed 200 ms or more: `setTimeout(fn, N)`, `sleep(N)` or `x.waitForTimeout(N)`
// with a literal N of 200 or more (comments do not count).
// A setTimeout whose handle the file clears (`const t = setTimeout(...)` ... `clearTimeout(t)`)
// is a deadline a passing test never reaches, not a sleep. The load benchmarks and the chaos test
// (timed kills on purpose) are exempt, and this file, whose examples are in strings.

const ROOT = path.resolve(import.meta.dirname, '../..');
const TESTS = path.join(ROOT, 'tests');
const EXEMPT = ['tests/load/', 'tests/api/orders/chaos.test.ts', 'tests/unit/noFixedSleeps.test.ts'];
const LIMIT_MS = 200;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Line comments and block comments blanked out (same length, so positions and lines stay). */
const withoutComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\/|(^|[^:\\])\/\/.*$/gm, (m, before = '') =>
    m.startsWith('/*') ? m.replace(/[^\n]/g, ' ') : before + ' '.repeat(m.length - before.length),
  );

/** The top-level arguments of the call whose `(` is at `open`, and where it ends. */
function argumentsAt(source: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = open + 1;
  for (let i = open; i < source.length; i++) {
    const c = source[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      depth--;
      if (depth === 0) {
        args.push(source.slice(from, i).trim());
        return { args, end: i };
      }
    } else if (c === ',' && depth === 1) {
      args.push(source.slice(from, i).trim());
      from = i + 1;
    }
  }
  return { args, end: source.length };
}

const literalMs = (arg: string | undefined): number | null =>
  arg !== undefined && /^\d[\d_]*$/.test(arg) ? Number(arg.replace(/_/g, '')) : null;

/**
 * Every fixed sleep of LIMIT_MS or more in `source`, as `line: call`: `setTimeout(fn, N)` (not
 * `x.setTimeout`, Playwright's test timeout), `sleep(N)` and `x.waitForTimeout(N)`, N a literal.
 */
function fixedSleeps(source: string): string[] {
  const code = withoutComments(source);
  const cleared = new Set([...code.matchAll(/\bclearTimeout\(\s*(\w+)\s*\)/g)].map((m) => m[1]!));
  const found: string[] = [];
  for (const m of code.matchAll(/(\.?)\b(setTimeout|sleep|waitForTimeout)\s*\(/g)) {
    const [, member, name] = m;
    if ((name === 'waitForTimeout') !== (member === '.')) continue;
    const open = m.index! + m[0].length - 1;
    const { args, end } = argumentsAt(code, open);
    const ms = literalMs(name === 'setTimeout' ? args[1] : args[0]);
    if (ms === null || ms < LIMIT_MS) continue;
    // `const t = setTimeout(...)` or `t = setTimeout(...)` with a `clearTimeout(t)`: a deadline.
    const handle = /(\w+)\s*=\s*$/.exec(code.slice(Math.max(0, m.index! - 80), m.index!))?.[1];
    if (name === 'setTimeout' && handle && cleared.has(handle)) continue;
    const line = code.slice(0, m.index!).split('\n').length;
    const call = code.slice(m.index! + member!.length, end + 1).replace(/\s+/g, ' ');
    found.push(`${line}: ${name === 'waitForTimeout' ? 'x.' : ''}${call}`);
  }
  return found;
}

describe('no fixed sleeps in the tests (issue 34)', () => {
  it('finds the shapes it is meant to, and not deadlines, short polls or test timeouts', () => {
    const source = [
      'await new Promise((r) => setTimeout(r, 250));',
      'await sleep(1_500);',
      'await page.waitForTimeout(500);',
      "const waited = new Promise((r) => setTimeout(() => r('late'), 300));",
      'await new Promise((r) => setTimeout(r, 150));',
      'await sleep(interval);',
      'test.setTimeout(90_000);',
      "const timer = setTimeout(() => resolve('no answer'), 3000); clearTimeout(timer);",
      '// await sleep(5000) in a comment',
    ].join('\n');
    expect(fixedSleeps(source)).toEqual([
      '1: setTimeout(r, 250)',
      '2: sleep(1_500)',
      '3: x.waitForTimeout(500)',
      "4: setTimeout(() => r('late'), 300)",
    ]);
  });

  it('finds none under tests/ outside the load benchmarks and the chaos test', () => {
    const offenders = testFiles(TESTS)
      .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
      .filter((rel) => !EXEMPT.some((exempt) => rel.startsWith(exempt)))
      .flatMap((rel) =>
        fixedSleeps(fs.readFileSync(path.join(ROOT, rel), 'utf8')).map((hit) => `${rel}:${hit}`),
      );
    expect(offenders, 'wait for a condition, a barrier or a fake clock instead').toEqual([]);
  });
});
