import type https from 'node:https';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { type LocalBeaconServer, startLocalBeaconServer } from '../../api/draws/beacon/localBeacon';
import { loadConfig } from '../../api/platform/config';
import { type RunningServer, startServer } from '../../server/startServer';
import { fillPromoterDetails } from './promoter';
import { createTestDatabase, type TestDatabase } from './testDatabase';

export interface TestServer extends RunningServer {
  database: TestDatabase;
  /** The on-demand test beacon this server's draws use (its own port; DRAW_BEACON_URL). */
  beacon: LocalBeaconServer;
  stop: () => Promise<void>;
}

/** The real server (API + Socket.IO) on a free port, over a fresh database of the engine under test. */
export async function startTestServer(
  env: Record<string, string> = {},
  { webRoot, pushAgent }: { webRoot?: string; pushAgent?: https.Agent } = {},
): Promise<TestServer> {
  const database = await createTestDatabase();
  // As an admin would before opening sales: competitions can be made active (tests/support/promoter.ts).
  await fillPromoterDetails(database.db);
  // Draws use a round fixed 1 s ahead of a local beacon that produces it as soon as the draw asks
  // (on demand), so no test waits for a round's time.
  const beacon = await startLocalBeaconServer(database.dataDir, 1, { onDemand: true });
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    SEED_DEMO_DATA: '0',
    SWEEP_INTERVAL_MS: '0',
    LOG_LEVEL: 'silent',
    // Test-only allowance (docs/security.md): suites open many accounts from 127.0.0.1. The limit
    // stays on; tests of the limit itself pass REGISTRATIONS_PER_ADDRESS: '' for the default.
    REGISTRATIONS_PER_ADDRESS: '1000',
    // Cheap scrypt parameters (refused in production): registrations and sign-ins cost about 1 ms.
    PASSWORD_HASH_COST: 'test',
    DRAW_BEACON: 'on-demand',
    DRAW_BEACON_URL: beacon.url,
    DRAW_BEACON_DELAY_SECONDS: '1',
    DRAW_BEACON_PERIOD_SECONDS: '1',
    // The run's FAST_PATHS (the fastpaths-off project runs the realtime and hold tests without them).
    ...(process.env.FAST_PATHS ? { FAST_PATHS: process.env.FAST_PATHS } : {}),
    ...env,
  });
  // TEST_LOG_LEVEL=error shows the server's own log when a test needs explaining.
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const running = await startServer(config, { db: database.db, logger, webRoot, pushAgent });
  return {
    ...running,
    database,
    beacon,
    stop: async () => {
      await running.close();
      await beacon.close();
      await database.drop();
    },
  };
}

/**
 * One real server for the enclosing describe block: started before its tests (then `onStart`
 * picks what the tests need from it), stopped after them. `beforeStop` closes what tests opened.
 */
export function useTestServer(
  onStart: (server: TestServer) => void | Promise<void>,
  options: {
    env?: Record<string, string>;
    beforeStop?: () => void;
    webRoot?: string;
    /** Called before the server starts: the agent its web push sends with (tests/support/pushService.ts). */
    pushAgent?: () => https.Agent;
  } = {},
): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options.env, {
      webRoot: options.webRoot,
      pushAgent: options.pushAgent?.(),
    });
    await onStart(server);
  });
  afterAll(async () => {
    options.beforeStop?.();
    await server?.stop();
  });
}
