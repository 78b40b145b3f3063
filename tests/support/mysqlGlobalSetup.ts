import type { TestProject } from 'vitest/node';
import { type MysqlTemplate, makeMysqlTemplate, mysqlAdmin, TEST_MYSQL_URL } from './databaseTemplate';

export { TEST_MYSQL_URL } from './databaseTemplate';

declare module 'vitest' {
  export interface ProvidedContext {
    mysqlAvailable: boolean;
    /** The run's migrated template (tests/support/databaseTemplate.ts); null without a server. */
    mysqlTemplate: MysqlTemplate | null;
  }
}

/**
 * The MySQL/MariaDB suite needs a server. In CI (CI=true) an unreachable server fails the run;
 * on a laptop without one the suite is skipped with a loud notice instead. With a server, the
 * migrations run here, once, into a template that every test file copies.
 */
export default async function setup(project: TestProject) {
  const admin = mysqlAdmin();
  try {
    await admin.raw('select 1');
  } catch (err) {
    await admin.destroy();
    const reason = err instanceof Error ? err.message : String(err);
    if (process.env.CI) {
      throw new Error(`MySQL/MariaDB is not reachable at ${TEST_MYSQL_URL} (${reason}); CI requires it.`);
    }
    console.warn(
      `\n${'!'.repeat(78)}\n!! SKIPPING the MySQL/MariaDB API suite: cannot reach ${TEST_MYSQL_URL}\n!! (${reason})\n!! Start MariaDB or set TEST_MYSQL_URL to run it.\n${'!'.repeat(78)}\n`,
    );
    project.provide('mysqlAvailable', false);
    project.provide('mysqlTemplate', null);
    return;
  }
  const template = await makeMysqlTemplate(admin);
  project.provide('mysqlAvailable', true);
  project.provide('mysqlTemplate', template);
  return async () => {
    await admin.raw('DROP DATABASE IF EXISTS ??', [template.schema]);
    await admin.destroy();
  };
}
