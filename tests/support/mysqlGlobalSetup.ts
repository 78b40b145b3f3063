import knexFactory from 'knex';
import type { TestProject } from 'vitest/node';
import { mysqlConnection } from '../../knexfile';

export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

declare module 'vitest' {
  export interface ProvidedContext {
    mysqlAvailable: boolean;
  }
}

/**
 * The MySQL/MariaDB suite needs a server. In CI (CI=true) an unreachable server fails the run;
 * on a laptop without one the suite is skipped with a loud notice instead.
 */
export default async function setup(project: TestProject) {
  const probe = knexFactory({
    client: 'mysql2',
    connection: { ...mysqlConnection(TEST_MYSQL_URL), connectTimeout: 5000 },
    pool: { min: 0, max: 1 },
  });
  try {
    await probe.raw('select 1');
    project.provide('mysqlAvailable', true);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI) {
      throw new Error(`MySQL/MariaDB is not reachable at ${TEST_MYSQL_URL} (${reason}); CI requires it.`);
    }
    console.warn(
      `\n${'!'.repeat(78)}\n!! SKIPPING the MySQL/MariaDB API suite: cannot reach ${TEST_MYSQL_URL}\n!! (${reason})\n!! Start MariaDB or set TEST_MYSQL_URL to run it.\n${'!'.repeat(78)}\n`,
    );
    project.provide('mysqlAvailable', false);
  } finally {
    await probe.destroy();
  }
}
