import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../api/platform/config/variables';

// docs/configuration.md is what an operator reads: its table must name exactly the variables the
// server declares (api/platform/config/variables.ts), each with its declared default.

const DOC = path.resolve(__dirname, '../../docs/configuration.md');

/** The table's rows: the variables named in the first cell, and the default cell. */
function documentedRows(markdown: string): { names: string[]; defaults: string }[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*variable\s*\|/.test(line));
  expect(header, 'docs/configuration.md has a table headed "variable"').toBeGreaterThanOrEqual(0);
  const rows: { names: string[]; defaults: string }[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [first = '', defaults = ''] = line.slice(1).split('|');
    const names = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    rows.push({ names, defaults });
  }
  return rows;
}

describe('docs/configuration.md', () => {
  const rows = documentedRows(fs.readFileSync(DOC, 'utf8'));
  const documented = rows.flatMap((row) => row.names);
  const declared = Object.keys(ENV_VARIABLES);

  it('documents every declared variable once, and no variable the server does not read', () => {
    expect(rows.every((row) => row.names.length > 0)).toBe(true);
    expect(declared.filter((name) => !documented.includes(name))).toEqual([]);
    expect(documented.filter((name) => !declared.includes(name))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it("states each variable's declared default", () => {
    const wrong = Object.entries(ENV_VARIABLES).flatMap(([name, variable]) => {
      // The development session secret is a placeholder, not something to copy.
      if (!('default' in variable) || variable.default === '' || name === 'SESSION_SECRET') return [];
      const row = rows.find((r) => r.names.includes(name));
      return row?.defaults.includes(`\`${variable.default}\``) ? [] : [`${name}: \`${variable.default}\``];
    });
    expect(wrong).toEqual([]);
  });
});
