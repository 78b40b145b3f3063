// The site the web benchmarks measure: the production client (`npm run build`) served by
// `npm run serve` on a fresh SQLite DATA_DIR with the demo data, with the browser tests' settings
// (playwright.config.ts, not imported: loading it wipes the browser tests' database).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

export interface Site {
  url: string;
  close: () => Promise<void>;
}

export function buildClient() {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

// Card payments go through the sandbox gateway, whatever keys this shell holds.
const withoutStripe = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('STRIPE_')));

export async function startSite(port: number): Promise<Site> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-bench-web-'));
  const server: ChildProcess = spawn('npm', ['run', 'serve', '--silent'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true, // its own process group, so stopping npm also stops tsx and the server
    env: {
      ...withoutStripe(process.env),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      SEED_DEMO_DATA: '1',
      ADMIN_REQUIRE_2FA: 'true',
      DRAW_BEACON: 'local',
      // The grid benchmark's buyers hold and release 50 times a second from one address: the
      // request-rate limits would measure themselves (as in tests/load/server.ts).
      RATE_LIMITS: 'off',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (server.exitCode === null && server.pid) {
      const exited = new Promise((r) => server.once('exit', r));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm run serve exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error('The server did not answer /api/health within 90 s');
}
