import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// The real server as a child process (server/main.ts under tsx, as `npm run serve` runs it), for
// the tests that crash, stop or restart it, or run several at once.

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What server/main.ts prints once the site answers (printBanner). */
const BANNER = ' is running on ';

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class AppProcess {
  readonly exited: Promise<number | null>;
  readonly url: string;
  private alive = true;

  constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly log: string[],
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        this.alive = false;
        resolve(code);
      }),
    );
  }

  get running() {
    return this.alive;
  }

  /**
   * Resolves once the start-up banner is printed (server/main.ts prints it after listening, in the
   * primary after every worker said it is ready) and /api/health answers; false when the process
   * died first. No polling: it waits on the child's own output.
   */
  async ready(timeoutMs = 45_000): Promise<boolean> {
    const started = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const check = () => {
        if (!this.alive || this.log.join('').includes(BANNER)) {
          clearTimeout(timer);
          this.child.stdout!.off('data', check);
          this.child.off('exit', check);
          resolve(this.alive);
        }
      };
      this.child.stdout!.on('data', check);
      this.child.once('exit', check);
      check();
    });
    if (!this.alive) return false;
    if (!started) throw new Error(`server did not start:\n${this.log.slice(-30).join('')}`);
    try {
      const res = await fetch(`${this.url}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (res.status !== 200) throw new Error(`server started but /api/health answered ${res.status}`);
      return true;
    } catch (err) {
      // Killed just after its banner (a crash test's fault point): its exit follows at once.
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const died = await Promise.race([
        this.exited.then(() => true),
        new Promise<boolean>((resolve) => {
          deadline = setTimeout(() => resolve(false), 5000);
        }),
      ]);
      clearTimeout(deadline);
      if (died) return false;
      throw err;
    }
  }

  /** Sends the signal (SIGKILL unless told) and resolves with the exit code. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.alive) this.child.kill(signal);
    return this.exited;
  }
}

export interface AppProcessSettings {
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  /** More environment variables (over the quiet test defaults below). */
  env?: Record<string, string>;
  /** In a process group of its own (as a service manager starts it), so the group can be signalled. */
  detached?: boolean;
}

export function startAppProcess({
  port,
  databaseUrl,
  dataDir,
  env = {},
  detached = false,
}: AppProcessSettings): AppProcess {
  const log: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      SEED_DEMO_DATA: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMITS: 'off',
      REGISTRATIONS_PER_ADDRESS: '100000',
      PASSWORD_HASH_COST: 'test',
      ...(process.env.FAST_PATHS ? { FAST_PATHS: process.env.FAST_PATHS } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
  });
  child.stdout!.on('data', (b: Buffer) => log.push(b.toString()));
  child.stderr!.on('data', (b: Buffer) => log.push(b.toString()));
  return new AppProcess(child, port, log);
}
