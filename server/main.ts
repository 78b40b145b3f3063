// `npm start` / `npm run serve`: the whole site on one port; with WEB_CONCURRENCY above 1, as that
// many worker processes behind one primary (server/cluster.ts).

import cluster from 'node:cluster';
import pino from 'pino';
import { DEFAULT_WEB_ROOT } from '../api/app';
import { type Config, ConfigError, loadConfig } from '../api/platform/config';
import { followPrimary, startPrimary } from './cluster';
import { DEMO_CUSTOMER, startServer } from './startServer';

function printBanner(config: Config, url: string, database: string, workers: string[] = []) {
  console.info(
    [
      '',
      `  ${config.siteName} is running on ${url}`,
      `  Database: ${database}`,
      ...workers,
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
}

/**
 * A stop signal while already draining is ignored: a signal to the process group (systemd's
 * default, Ctrl-C, `kill -TERM -PGID`) reaches this process and whatever started it, and a
 * wrapper that relays it delivers it twice. The drain still ends within its grace period (a timer
 * ends the process shortly after it at the latest); SIGKILL is the way to stop at once.
 */
function repeatedSignal(logger: pino.Logger, signal: NodeJS.Signals) {
  logger.info({ signal }, 'already shutting down: the signal is ignored while the drain finishes');
}

/** The primary of WEB_CONCURRENCY workers: it starts them, replaces a dead one, and drains them all. */
async function runPrimary(config: Config) {
  const logger = pino({ level: config.logLevel });
  const primary = await startPrimary(config, logger);
  printBanner(config, primary.url, 'MySQL/MariaDB (DATABASE_URL)', [
    `  Workers: ${config.webConcurrency} (WEB_CONCURRENCY), Socket.IO between them through Redis`,
  ]);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return repeatedSignal(logger, signal);
    stopping = true;
    logger.info({ signal, workers: config.webConcurrency }, 'shutting down: draining every worker');
    process.exit((await primary.stop()) ? 0 : 1);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));
}

/** One app process: on its own, or as a worker of the primary. */
async function runApp(config: Config) {
  const worker = cluster.isWorker;
  const running = await startServer(config, { webRoot: DEFAULT_WEB_ROOT, clusterWorker: worker });
  if (!worker) {
    const database =
      running.deps.engine === 'mysql' ? 'MySQL/MariaDB (DATABASE_URL)' : `SQLite in ${config.dataDir}`;
    printBanner(config, running.url, database);
  }
  // SIGTERM (a restart, docker stop) drains: see RunningServer.close and docs/operations.md.
  const { logger } = running.deps;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals | 'primary') => {
    if (stopping) return signal === 'primary' ? undefined : repeatedSignal(logger, signal);
    stopping = true;
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
  if (worker) {
    // Ctrl-C reaches every process of the terminal's group: the primary coordinates the drain.
    process.on('SIGINT', () => undefined);
    followPrimary(() => void stop('primary'));
  } else {
    process.on('SIGINT', (signal) => void stop(signal));
  }
  process.on('SIGTERM', (signal) => void stop(signal));
}

async function main() {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) await runPrimary(config);
  else await runApp(config);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
