// The benchmarks' machine-readable output (`npm run bench -- --json FILE`, `npm run bench:web`):
// one file holding every named scenario, merged by name so separate runs (the server benchmarks and
// the web ones) fill the same file. The schema is documented in docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';

export interface Baseline {
  name: string;
  value: number;
  unit: string;
}

export interface Scenario {
  /** A stable name that dashboards and checks read (docs/performance.md lists them). */
  name: string;
  value: number;
  unit: string;
  /** The figure measured in the same run that `value` is compared with, or null. */
  baseline: Baseline | null;
}

export interface BenchReport {
  machine: {
    cpus: number;
    cpuModel: string;
    memoryBytes: number;
    node: string;
    platform: string;
    loadAverage: number[];
    measuredAt: string;
  };
  scenarios: Scenario[];
}

export function machineFacts(): BenchReport['machine'] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    measuredAt: new Date().toISOString(),
  };
}

/**
 * Writes `scenarios` into FILE, replacing scenarios of the same name and keeping the others, so
 * `npm run bench -- --json F` and `npm run bench:web -- --json F` can fill one report.
 */
export function writeScenarios(file: string, scenarios: Scenario[]): BenchReport {
  let kept: Scenario[] = [];
  if (fs.existsSync(file)) {
    const previous = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BenchReport>;
    const replaced = new Set(scenarios.map((s) => s.name));
    kept = (previous.scenarios ?? []).filter((s) => !replaced.has(s.name));
  }
  const report: BenchReport = { machine: machineFacts(), scenarios: [...kept, ...scenarios] };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** The value after `--json` on the command line, if any. */
export function jsonTarget(args: string[]): string | undefined {
  const at = args.indexOf('--json');
  return at >= 0 ? args[at + 1] : undefined;
}
