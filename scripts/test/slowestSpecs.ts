// Which browser spec files cost the suite its time: reads Playwright's JSON report of the last run
// (playwright.config.ts writes it) and prints the files by the time their tests took, summed over
// both workers, with each file's test count and slowest test. `npm test` prints it after the run;
// alone: `npx tsx scripts/test/slowestSpecs.ts [REPORT] [N]`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Spec {
  title: string;
  file: string;
  tests: { results: { duration: number }[] }[];
}
interface Suite {
  specs?: Spec[];
  suites?: Suite[];
}

export interface FileCost {
  file: string;
  tests: number;
  ms: number;
  slowest: { title: string; ms: number };
}

/** Each file's summed test time (every attempt, retries included), slowest first. */
export function costByFile(report: { suites?: Suite[] }): FileCost[] {
  const files = new Map<string, FileCost>();
  const visit = (suite: Suite) => {
    for (const spec of suite.specs ?? []) {
      const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
      const cost = files.get(spec.file) ?? {
        file: spec.file,
        tests: 0,
        ms: 0,
        slowest: { title: '', ms: -1 },
      };
      cost.tests += 1;
      cost.ms += ms;
      if (ms > cost.slowest.ms) cost.slowest = { title: spec.title, ms };
      files.set(spec.file, cost);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  return [...files.values()].sort((a, b) => b.ms - a.ms);
}

export function slowestTable(costs: FileCost[], n: number): string {
  const total = costs.reduce((sum, c) => sum + c.ms, 0);
  const rows = costs
    .slice(0, n)
    .map(
      (c) =>
        `  ${(c.ms / 1000).toFixed(0).padStart(5)} s ${((100 * c.ms) / Math.max(1, total)).toFixed(0).padStart(3)}%  ${c.file} (${c.tests} tests; slowest ${(c.slowest.ms / 1000).toFixed(0)} s: ${c.slowest.title})`,
    );
  return `Browser spec files by test time (${(total / 1000).toFixed(0)} s over all workers):\n${rows.join('\n')}\n`;
}

export const defaultReport = () =>
  path.join(os.tmpdir(), `wcp-e2e-${Number(process.env.E2E_PORT ?? 3100)}-report.json`);

if (process.argv[1]?.endsWith('slowestSpecs.ts')) {
  const file = process.argv[2] ?? defaultReport();
  const n = Number(process.argv[3] ?? 12);
  if (!fs.existsSync(file)) {
    process.stderr.write(`No Playwright report at ${file}: run the browser tests first.\n`);
    process.exit(2);
  }
  process.stdout.write(slowestTable(costByFile(JSON.parse(fs.readFileSync(file, 'utf8'))), n));
}
