// What the capacity bench (scenarios/capacity.ts) measures with: a Redis of its own (so its CPU and
// its PUBLISH count are this bench's alone), the app as one process (server.ts) or as the
// WEB_CONCURRENCY primary and its workers (server/main.ts), and CPU readings from /proc for whole
// process trees, main threads, MariaDB and Redis over a window of work.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { createClient } from 'redis';
import { freePort, startAppProcess } from '../support/appProcess';
import { child, databasePid, MYSQL_URL, machineCpuMs, next, processCpuMs, stop } from './harness';

export interface PrivateRedis {
  url: string;
  pid: number;
  /** PUBLISH commands served so far (INFO commandstats). */
  publishes(): Promise<number>;
  stop(): Promise<void>;
}

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** redis-server on a free port, no persistence; stopped by `stop()`. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const failed = new Promise<never>((_, reject) =>
    proc.once('error', (err) => reject(new Error(`capacity needs redis-server on PATH: ${err.message}`))),
  );
  for (let i = 0; !(await Promise.race([connects(port), failed])); i++) {
    if (i > 100) throw new Error('redis-server did not start within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = `redis://127.0.0.1:${port}`;
  const client = createClient({ url });
  await client.connect();
  return {
    url,
    pid: proc.pid!,
    publishes: async () =>
      Number(/cmdstat_publish:calls=(\d+)/.exec(await client.info('commandstats'))?.[1] ?? 0),
    stop: async () => {
      await client.close();
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** A process and all its descendants (a cluster's primary and workers, tsx's esbuild). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // gone, or not Linux
  }
  return [pid, ...children.flatMap(processTree)];
}

/** CPU (ms) of one process's main thread: the JavaScript thread of a Node process. */
export function mainThreadCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

const isAppWorker = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/main.ts');
  } catch {
    return false;
  }
};

/** The app under test: its URL, the pids of its processes and of its app (JavaScript) processes. */
export interface AppUnderTest {
  /** Where the clients send requests: one URL, or one per process for clients to take in turn. */
  urls: string[];
  /** The WEB_CONCURRENCY primary, if any. */
  primaryPid?: number;
  pids(): number[];
  /** The processes serving requests: the one server, or the cluster's workers. */
  servingPids(): number[];
  stop(): Promise<void>;
}

export interface AppEnv {
  databaseUrl: string;
  dataDir: string;
  redisUrl: string;
}

/** One app process (tests/load/server.ts), with the Redis adapter on as in a cluster. */
export async function startSingle({ databaseUrl, dataDir, redisUrl }: AppEnv): Promise<AppUnderTest> {
  const server: ChildProcess = child('server.ts', {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    REDIS_URL: redisUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
  });
  const { url } = await next<{ url: string }>(server, 'ready');
  return {
    urls: [url],
    pids: () => processTree(server.pid!),
    servingPids: () => [server.pid!],
    stop: () => stop(server),
  };
}

/** Two app processes on the same database and Redis, each with its own port (as behind a proxy). */
export async function startPair(env: AppEnv): Promise<AppUnderTest> {
  const [a, b] = await Promise.all([startSingle(env), startSingle(env)]);
  return {
    urls: [...a.urls, ...b.urls],
    pids: () => [...a.pids(), ...b.pids()],
    servingPids: () => [...a.servingPids(), ...b.servingPids()],
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
    },
  };
}

/** `npm run serve` with WEB_CONCURRENCY=N: the primary on one port, N workers, Redis between them. */
export async function startCluster(workers: number, { databaseUrl, dataDir, redisUrl }: AppEnv) {
  const app = startAppProcess({
    port: await freePort(),
    databaseUrl,
    dataDir,
    env: {
      WEB_CONCURRENCY: String(workers),
      REDIS_URL: redisUrl,
      SWEEP_INTERVAL_MS: '0',
      LOG_LEVEL: 'silent',
    },
  });
  if (!(await app.ready(90_000))) throw new Error(`the cluster did not start:\n${app.log.join('')}`);
  const primary = app.child.pid!;
  return {
    urls: [app.url],
    primaryPid: primary,
    pids: () => processTree(primary),
    servingPids: () => processTree(primary).filter((pid) => pid !== primary && isAppWorker(pid)),
    stop: async () => {
      await app.kill('SIGTERM');
    },
  } satisfies AppUnderTest;
}

/**
 * The database server behind TEST_MYSQL_URL: the mariadbd (or mysqld) started with its port on the
 * command line, else one started without a port (the system's, on 3306), else any. A bench run on
 * a MariaDB of its own (other benchmarks using the system's) so reads only its own CPU.
 */
export function databasePidOf(url = MYSQL_URL): number | undefined {
  const port = new URL(url).port || '3306';
  const candidates = ['mariadbd', 'mysqld'].flatMap((name) => {
    try {
      return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
  const cmdline = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      return [];
    }
  };
  const byPort = candidates.find((pid) => cmdline(pid).includes(`--port=${port}`));
  if (byPort) return byPort;
  const system = candidates.find((pid) => !cmdline(pid).some((arg) => arg.startsWith('--port=')));
  return port === '3306' && system ? system : databasePid();
}

/** CPU time (ms) each part used during a window of work, and the machine's. */
export interface Window<T> {
  result: T;
  ms: number;
  cpu: Record<string, number>;
  database: number;
  redis: number;
  machineBusy: number;
  machineTotal: number;
  publishes: number;
}

/**
 * Runs `work` and answers the CPU each of `parts` (a reader of cumulative CPU ms), MariaDB, Redis
 * and the whole machine used meanwhile, and the PUBLISHes Redis served.
 */
export async function measure<T>(
  parts: Record<string, () => number>,
  redis: PrivateRedis,
  work: () => Promise<T>,
): Promise<Window<T>> {
  const db = databasePidOf();
  const read = () => ({
    parts: Object.fromEntries(Object.entries(parts).map(([k, f]) => [k, f()])),
    database: processCpuMs(db),
    redis: processCpuMs(redis.pid),
    machine: machineCpuMs(),
    at: Date.now(),
  });
  const publishesBefore = await redis.publishes();
  const start = read();
  const result = await work();
  const end = read();
  return {
    result,
    ms: end.at - start.at,
    cpu: Object.fromEntries(Object.keys(parts).map((k) => [k, end.parts[k]! - start.parts[k]!])),
    database: end.database - start.database,
    redis: end.redis - start.redis,
    machineBusy: end.machine.busy - start.machine.busy,
    machineTotal: end.machine.total - start.machine.total,
    publishes: (await redis.publishes()) - publishesBefore,
  };
}

export const sumCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
export const sumMainCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + mainThreadCpuMs(pid), 0);
