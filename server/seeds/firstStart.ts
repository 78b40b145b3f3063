import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../../api/platform/config';
import { claimOnce } from '../../db/connection';
import { withNamedLock } from '../../db/migrationLock';
import { ensureAdminAccount } from './admin';
import { seedDemoData } from './demo';

/**
 * What every start does after migrating: the demo data on a first start (when enabled) and the
 * configured admin account if missing. Under the database's seeding lock, so that processes
 * starting together on an empty database take turns: the first seeds, the others then find the
 * rows there. Without it, the demo seed of one and the admin account of another inserted the same
 * username and one process died on the duplicate (docs/operations.md#start-up).
 */
export async function seedOnStart(
  db: Knex,
  config: Pick<Config, 'seedDemoData' | 'adminUsername' | 'adminPassword'>,
  logger: Logger,
  waitMs = 120_000,
): Promise<void> {
  await withNamedLock(db, 'seed', waitMs, async () => {
    if (config.seedDemoData) {
      const { count } = (await db('competitions').count({ count: '*' }).first()) as { count: number };
      // Only a database that never had competitions gets the demo, and only once.
      if (Number(count) === 0 && (await claimOnce(db, 'demo_data_seeded_at'))) {
        const summary = await seedDemoData(db, {
          adminUsername: config.adminUsername,
          adminPassword: config.adminPassword,
        });
        logger.info(summary, 'seeded demo data on first start');
      }
    }
    if (await ensureAdminAccount(db, config.adminUsername, config.adminPassword)) {
      logger.info({ username: config.adminUsername }, 'created the admin account');
    }
  });
}
