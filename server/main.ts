// `npm start` / `npm run serve`: the whole site on one port.

import { DEFAULT_WEB_ROOT } from '../api/app';
import { ConfigError, loadConfig } from '../api/platform/config';
import { DEMO_CUSTOMER, startServer } from './startServer';

async function main() {
  const config = loadConfig();
  const running = await startServer(config, { webRoot: DEFAULT_WEB_ROOT });
  const dbLabel =
    running.deps.engine === 'mysql' ? 'MySQL/MariaDB (DATABASE_URL)' : `SQLite in ${config.dataDir}`;
  console.info(
    [
      '',
      `  ${config.siteName} is running on ${running.url}`,
      `  Database: ${dbLabel}`,
      ...(config.seedDemoData
        ? [
            '  Demo logins:',
            `    admin     ${config.adminUsername} / ${config.adminPassword}`,
            `    customer  ${DEMO_CUSTOMER.username} / ${DEMO_CUSTOMER.password}`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  // SIGTERM (a restart, docker stop) drains: see RunningServer.close and docs/operations.md.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: the operator does not want to wait.
      running.deps.logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    const { logger } = running.deps;
    logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: draining');
    // Should closing itself hang (a stuck query), the process still ends, a little after the grace.
    setTimeout(() => {
      logger.error('shutdown did not finish in time: exiting anyway');
      process.exit(1);
    }, config.shutdownGraceMs + 15_000).unref();
    try {
      const finished = await running.close();
      logger.info({ finished }, 'shut down');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
