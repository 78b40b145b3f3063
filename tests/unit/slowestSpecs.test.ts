import { describe, expect, it } from 'vitest';
import { costByFile, slowestTable } from '../../scripts/test/slowestSpecs';

const spec = (file: string, title: string, ...durations: number[]) => ({
  file,
  title,
  tests: [{ results: durations.map((duration) => ({ duration })) }],
});

describe('the slowest browser spec files', () => {
  const report = {
    suites: [
      { specs: [spec('a.spec.ts', 'quick', 1000), spec('a.spec.ts', 'slow', 4000)] },
      // Nested describe blocks, and a retried test counted with both attempts.
      { suites: [{ specs: [spec('b.spec.ts', 'flaky', 6000, 3000)] }] },
    ],
  };

  it('sums every attempt of every test per file, slowest file first, naming its slowest test', () => {
    expect(costByFile(report)).toEqual([
      { file: 'b.spec.ts', tests: 1, ms: 9000, slowest: { title: 'flaky', ms: 9000 } },
      { file: 'a.spec.ts', tests: 2, ms: 5000, slowest: { title: 'slow', ms: 4000 } },
    ]);
  });

  it('prints the top files with their share of the whole', () => {
    const table = slowestTable(costByFile(report), 1);
    expect(table).toContain('(14 s over all workers)');
    expect(table).toContain('9 s  64%  b.spec.ts (1 tests; slowest 9 s: flaky)');
    expect(table).not.toContain('a.spec.ts');
  });
});
