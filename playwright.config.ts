import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium';

// Browser tests run Debian's Chromium (no browser downloads here) against the real built site,
// served by `npm run serve` on a fresh SQLite database with the demo data.
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.join(os.tmpdir(), `wcp-e2e-${port}`);
// Only the main process starts the server; workers must not wipe its database.
if (!process.env.TEST_WORKER_INDEX) fs.rmSync(dataDir, { recursive: true, force: true });

export default defineConfig({
  testDir: 'tests/e2e',
  // Several flows drive two browsers and a built client on a 2-core machine; 30 s was exceeded
  // under load in CI with every step passing.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // The JSON report feeds the slowest-files summary `npm test` prints (scripts/test/slowestSpecs.ts).
  reporter: [['list'], ['json', { outputFile: path.join(os.tmpdir(), `wcp-e2e-${port}-report.json`) }]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: 'swarm.spec.ts' },
    // The swarm is a load generator (four pages in two more browsers for 10 s, on 2 cores): run
    // beside another spec on the same server, it starved it past its timeouts (skillTest.spec.ts
    // waited over 10 s for an admin page). It runs once the others are done; to run it alone,
    // `npx playwright test swarm --no-deps`.
    {
      name: 'swarm',
      use: { browserName: 'chromium' },
      testMatch: 'swarm.spec.ts',
      dependencies: ['chromium'],
    },
  ],
  webServer: {
    // `npm test` builds the client once before the suites (E2E_BUILT=1); alone, the spec run builds it.
    command: process.env.E2E_BUILT ? 'npm run serve' : 'npm run build && npm run serve',
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    // Limits stay on; the browser tests open many accounts from 127.0.0.1, so they get the
    // documented test-only registration allowance (docs/security.md).
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      REGISTRATIONS_PER_ADDRESS: '1000',
      // Cheap password hashes (tests only, refused in production).
      PASSWORD_HASH_COST: 'test',
      // As in production; the demo admin the other specs use is exempt outside production.
      ADMIN_REQUIRE_2FA: 'true',
      // Draws use the in-process test beacon: a round a second ahead, produced when the draw asks.
      DRAW_BEACON: 'on-demand',
      DRAW_BEACON_DELAY_SECONDS: '1',
      DRAW_BEACON_PERIOD_SECONDS: '1',
    },
  },
});
