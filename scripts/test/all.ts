// `npm test`: every suite, with the slow ones side by side. The API suites spend much of their
// time waiting on sockets, timers and MariaDB, so two streams of them share a 2-core machine well;
// the browser tests then run alone, as they measure what a page shows within a time limit.
// Prints each step's time and exits non-zero if any step failed (after letting the others finish).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { costByFile, defaultReport, slowestTable } from './slowestSpecs';

interface Step {
  name: string;
  command: string;
  env?: Record<string, string>;
}

const npm = (script: string, env?: Record<string, string>): Step => ({
  name: script,
  command: `npm run --silent ${script}`,
  env,
});

/** Steps of a stream run one after another; the streams of a phase run at the same time. */
const PHASES: Step[][][] = [
  [[npm('typecheck')], [npm('lint')], [npm('build')]],
  [
    [npm('test:unit'), npm('test:api:sqlite', { API_SQLITE: 'engine-sensitive' }), npm('test:fastpaths-off')],
    [npm('test:api:mysql')],
  ],
  [[npm('test:e2e', { E2E_BUILT: '1' })]],
];

interface Outcome {
  name: string;
  seconds: number;
  code: number;
}

function run(step: Step): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, {
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env },
    });
    const prefix = `[${step.name}] `;
    const relay = (out: NodeJS.WriteStream) => {
      let partial = '';
      return (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) out.write(`${prefix}${line}\n`);
      };
    };
    child.stdout.on('data', relay(process.stdout));
    child.stderr.on('data', relay(process.stderr));
    child.on('close', (code) =>
      resolve({ name: step.name, seconds: (Date.now() - started) / 1000, code: code ?? 1 }),
    );
  });
}

async function stream(steps: Step[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const step of steps) {
    const outcome = await run(step);
    outcomes.push(outcome);
    if (outcome.code !== 0) break;
  }
  return outcomes;
}

const started = Date.now();
const outcomes: Outcome[] = [];
for (const phase of PHASES) {
  outcomes.push(...(await Promise.all(phase.map(stream))).flat());
  if (outcomes.some((o) => o.code !== 0)) break;
}
const total = (Date.now() - started) / 1000;
if (outcomes.some((o) => o.name === 'test:e2e') && fs.existsSync(defaultReport()))
  process.stdout.write(
    `\n${slowestTable(costByFile(JSON.parse(fs.readFileSync(defaultReport(), 'utf8'))), 12)}`,
  );
const summary = outcomes.map(
  (o) => `  ${o.code === 0 ? 'ok  ' : 'FAIL'} ${o.name.padEnd(18)} ${o.seconds.toFixed(0).padStart(5)} s`,
);
process.stdout.write(
  `\nnpm test:\n${summary.join('\n')}\n  total (wall)             ${total.toFixed(0).padStart(5)} s\n`,
);
process.exit(outcomes.every((o) => o.code === 0) ? 0 : 1);
