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
  const stop = async (signal: string) => {
    running.deps.logger.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
