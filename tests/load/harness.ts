// What every server benchmark shares: child processes driven over IPC, medians and percentiles,
// and a competition row to measure against. Scenario modules live in ./scenarios/.
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrateLatest, openDatabase } from '../../db/connection';
import type { Scenario } from './report';

export interface BenchOptions {
  /** How many runs each figure is the median of (3, or 1 with --quick). */
  runs: number;
  /** Shorter durations and only the sizes the named scenarios need (`--quick`). */
  quick: boolean;
}

/** One scenario module's output: Markdown for docs/performance.md and the named figures. */
export interface SectionResult {
  markdown: string;
  scenarios: Scenario[];
}

export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const CLIENT_PROCESSES = 4;
const here = path.dirname(new URL(import.meta.url).pathname);

export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Runs `once` `runs` times and returns a median-of-runs accessor over its results. */
export async function medianOf<T>(
  runs: number,
  once: (run: number) => Promise<T>,
): Promise<{ results: T[]; m: (f: (x: T) => number) => number }> {
  const results: T[] = [];
  for (let r = 0; r < runs; r++) results.push(await once(r));
  return { results, m: (f) => median(results.map(f)) };
}

export function percentile(histogram: Record<number, number>, p: number): number {
  const entries = Object.entries(histogram)
    .map(([k, v]) => [Number(k), v] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, v]) => sum + v, 0);
  let seen = 0;
  for (const [ms, n] of entries) {
    seen += n;
    if (seen >= total * p) return ms;
  }
  return Number.NaN;
}

export const merge = (target: Record<number, number>, h: Record<number, number>) => {
  for (const [k, v] of Object.entries(h)) target[Number(k)] = (target[Number(k)] ?? 0) + v;
};

/** Forks a TypeScript script of tests/load/ with tsx, IPC on, its stderr passed through. */
export function child(script: string, env: Record<string, string>, execArgv: string[] = []): ChildProcess {
  return fork(path.join(here, script), [], {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** Node arguments for the server process when profiling (BENCH_SERVER_NODE_ARGS). */
export const profileArgs = () => process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** The next IPC message of `type` from `proc`; rejects if the process exits first. */
export function next<T>(proc: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== type) return;
      proc.off('message', onMessage);
      resolve(m as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', (code) =>
      reject(new Error(`${path.basename(String(proc.spawnargs.at(-1)))} exited (${code})`)),
    );
  });
}

export const stop = (proc: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });

/** Splits `total` clients over at most `processes` processes, as evenly as possible. */
export const shares = (total: number, processes: number) =>
  Array.from(
    { length: processes },
    (_, i) => Math.floor(total / processes) + (i < total % processes ? 1 : 0),
  );

export async function insertCompetition(db: Knex, title: string, totalTickets: number) {
  const now = Date.now();
  const [id] = await db('competitions').insert({
    title,
    description: 'Benchmark competition',
    image: null,
    ticketPricePence: 100,
    totalTickets,
    ticketsSold: 0,
    endDate: now + 30 * 86_400_000,
    autoWin: false,
    status: 'active',
    features: '[]',
    details: '{"category":"Cash"}',
    createdAt: now,
    updatedAt: now,
  });
  return Number(id);
}

export const formatCount = (n: number) => n.toLocaleString('en-GB');
export const progress = (line: string) => process.stderr.write(`${line}\n`);

/** A migrated throw-away MariaDB database for one run, and the DATA_DIR its server processes use. */
export interface BenchDatabase {
  db: Knex;
  databaseUrl: string;
  dataDir: string;
}

/** Runs `work` on a fresh database (BenchDatabase), dropped afterwards whatever happens. */
export async function withBenchDatabase<T>(work: (bench: BenchDatabase) => Promise<T>): Promise<T> {
  const name = `wcp_bench_${randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: MYSQL_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  const url = new URL(MYSQL_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-'));
  const db = openDatabase({ dataDir, databaseUrl });
  try {
    await migrateLatest(db);
    return await work({ db, databaseUrl, dataDir });
  } finally {
    await db.destroy();
    await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
    await admin.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface FanoutReport {
  histogram: Record<number, number>;
  gaps: number;
  missing: number;
}

/**
 * Asks each fan-out client (fanoutClient.ts) for its arrivals against the publish times, merges
 * them, and closes the clients.
 */
export async function collectFanout(
  clients: ChildProcess[],
  published: Record<number, number>,
): Promise<FanoutReport> {
  const reports = clients.map((c) => next<FanoutReport>(c, 'report'));
  for (const c of clients) c.send({ type: 'report', published });
  const total: FanoutReport = { histogram: {}, gaps: 0, missing: 0 };
  for (const r of await Promise.all(reports)) {
    merge(total.histogram, r.histogram);
    total.gaps += r.gaps;
    total.missing += r.missing;
  }
  for (const c of clients) c.send({ type: 'close' });
  await Promise.all(clients.map(stop));
  return total;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); 0 elsewhere. */
export function processCpuMs(pid: number | undefined): number {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The database server's process id (MariaDB or MySQL on this machine), if it runs here: the one
 * listening on MYSQL_URL's port when several run (its `--port`, none for 3306).
 */
export function databasePid(): number | undefined {
  const port = new URL(MYSQL_URL).port || '3306';
  const pids: number[] = [];
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      pids.push(...execFileSync('pidof', [name], { encoding: 'utf8' }).trim().split(/\s+/).map(Number));
    } catch {
      // not running under this name
    }
  }
  const portOf = (pid: number) => {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.find((a) => a.startsWith('--port='))?.slice('--port='.length) ?? '3306';
    } catch {
      return undefined;
    }
  };
  return pids.find((pid) => portOf(pid) === port) ?? pids[0];
}

/** The machine's busy and total CPU time so far (ms, all cores), from /proc/stat. */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const ticks = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return {
      busy: ((total - idle) * 1000) / CLOCK_TICKS_PER_SECOND,
      total: (total * 1000) / CLOCK_TICKS_PER_SECOND,
    };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Where a run's CPU went, in ms: the app server, the database server, the load clients, the machine. */
export interface CpuSplit {
  server: number;
  database: number;
  clients: number;
  machineBusy: number;
  machineTotal: number;
}

/**
 * Starts counting the CPU of the server, the database and the client processes; the returned
 * function stops and answers what each used meanwhile. This is what says whether a figure is
 * bounded by this code (the server), by the database's work, or by the load generators sharing
 * the machine (docs/performance.md, holds).
 */
export function cpuMeter(server: ChildProcess, clients: ChildProcess[]): () => CpuSplit {
  const db = databasePid();
  const read = () => ({
    server: processCpuMs(server.pid),
    database: processCpuMs(db),
    clients: clients.reduce((sum, c) => sum + processCpuMs(c.pid), 0),
    machine: machineCpuMs(),
  });
  const start = read();
  return () => {
    const end = read();
    return {
      server: end.server - start.server,
      database: end.database - start.database,
      clients: end.clients - start.clients,
      machineBusy: end.machine.busy - start.machine.busy,
      machineTotal: end.machine.total - start.machine.total,
    };
  };
}
