// Database commands: `npm run db:migrate`, `npm run db:rollback`, `npm run db:seed`.
// Uses the same configuration as the server (DATABASE_URL or the SQLite file under DATA_DIR).
import { loadConfig } from '../api/platform/config';
import { migrateLatest, openDatabase, rollbackAll } from '../db/connection';
import { seedDemoData } from './seeds/demo';

async function main(command: string | undefined) {
  const config = loadConfig();
  const db = openDatabase(config);
  try {
    if (command === 'migrate') {
      const applied = await migrateLatest(db);
      console.info(applied.length ? `Applied: ${applied.join(', ')}` : 'Already up to date.');
    } else if (command === 'rollback') {
      await rollbackAll(db);
      console.info('Rolled back every migration.');
    } else if (command === 'seed') {
      await migrateLatest(db);
      const summary = await seedDemoData(db, {
        adminUsername: config.adminUsername,
        adminPassword: config.adminPassword,
      });
      console.info(
        `Seeded: ${summary.usersCreated} users, ${summary.competitionsCreated} competitions, ${summary.ticketsSold} tickets sold (existing rows left as they were).`,
      );
    } else {
      console.error('Usage: tsx server/dbCli.ts migrate | rollback | seed');
      process.exitCode = 2;
    }
  } finally {
    await db.destroy();
  }
}

main(process.argv[2]).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
