// `npm run bench`: the server benchmarks (snapshot size, contention, fan-out, memory per socket, a
// queued launch).
// Every figure is the median of RUNS runs, beside a baseline measured in the same run. Prints
// Markdown for docs/performance.md; `--json FILE` also writes the named scenarios (report.ts).
//   npm run bench                      every scenario, 3 runs each
//   npm run bench -- --quick           every scenario once, shorter (under 8 minutes)
//   npm run bench -- --runs 1          one run each, full durations
//   npm run bench -- fanout            one section (snapshot | contention | fanout | cross-process | capacity | launch)
//   npm run bench -- --json out.json   also write the JSON report
import os from 'node:os';
import type { BenchOptions, SectionResult } from './harness';
import { jsonTarget, type Scenario, writeScenarios } from './report';
import { capacity } from './scenarios/capacity';
import { contention } from './scenarios/contention';
import { crossProcess } from './scenarios/crossProcess';
import { fanout } from './scenarios/fanout';
import { launch } from './scenarios/launch';
import { snapshot } from './scenarios/snapshot';

const SECTIONS: Record<string, (options: BenchOptions) => Promise<SectionResult>> = {
  snapshot,
  contention,
  fanout,
  'cross-process': crossProcess,
  capacity,
  launch,
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const runsAt = args.indexOf('--runs');
const options: BenchOptions = { quick, runs: runsAt >= 0 ? Number(args[runsAt + 1]) || 1 : quick ? 1 : 3 };
const json = jsonTarget(args);
const chosen = args.filter((a) => a in SECTIONS);
const names = chosen.length > 0 ? chosen : Object.keys(SECTIONS);

const started = Date.now();
const markdown: string[] = [];
const scenarios: Scenario[] = [];
for (const name of names) {
  const result = await SECTIONS[name]!(options);
  markdown.push(result.markdown);
  scenarios.push(...result.scenarios);
}
console.info(
  `\n## Results (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${Math.round((Date.now() - started) / 1000)} s)\n\n${markdown.join('\n')}`,
);
if (json) {
  writeScenarios(json, scenarios);
  console.info(`Wrote ${scenarios.length} scenarios to ${json}`);
}
