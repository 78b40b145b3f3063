import type { Knex } from 'knex';
import { engineOfKnex } from './dialect';

// Migrations are run by one process at a time on MySQL/MariaDB through a server-side named lock
// (GET_LOCK). knex's own lock table is not enough on its own: its table and row are created by a
// check-then-insert outside any lock, so processes starting together on an empty database race
// ("table already exists", or two lock rows and "already locked" for ever), and a process killed
// mid-migration leaves its row locked. A named lock belongs to a connection, so MariaDB frees it
// when the holder dies, and while we hold it nobody else can be migrating: a knex lock found set
// then is stale, and is reset. Seeding on start takes a named lock of its own the same way.

const KNEX_LOCK_TABLE = 'knex_migrations_lock';

export class MigrationLockTimeout extends Error {}

/**
 * Runs `work` holding a server-wide named lock of this database (MySQL/MariaDB; SQLite is one
 * process per file, so it just runs), waiting up to `waitMs` for it. The lock belongs to one
 * connection, taken aside from the pool for the whole run, so MariaDB frees it if the holder dies.
 */
export async function withNamedLock<T>(
  db: Knex,
  purpose: string,
  waitMs: number,
  work: () => Promise<T>,
): Promise<T> {
  if (engineOfKnex(db) !== 'mysql') return work();
  const conn = await db.client.acquireConnection();
  try {
    const [[{ name }]] = await db.raw('SELECT DATABASE() AS name').connection(conn);
    // Named locks are server-wide: the name carries the schema (at most 64 characters).
    const lockName = `${purpose}:${name}`.slice(0, 64);
    const [[{ got }]] = await db
      .raw('SELECT GET_LOCK(?, ?) AS got', [lockName, Math.ceil(waitMs / 1000)])
      .connection(conn);
    if (Number(got) !== 1) {
      throw new MigrationLockTimeout(
        `Another process has held the ${purpose} lock of ${name} for over ${Math.ceil(waitMs / 1000)} s.`,
      );
    }
    try {
      return await work();
    } finally {
      await db.raw('SELECT RELEASE_LOCK(?)', [lockName]).connection(conn);
    }
  } finally {
    await db.client.releaseConnection(conn);
  }
}

/** Runs `work` holding the database's migration lock (MySQL/MariaDB), waiting up to `waitMs` for it. */
export async function withMigrationLock<T>(
  db: Knex,
  waitMs: number,
  work: () => Promise<T>,
  onStaleLock: () => void = () => undefined,
): Promise<T> {
  return withNamedLock(db, 'migrate', waitMs, async () => {
    if (engineOfKnex(db) === 'mysql' && (await resetStaleKnexLock(db))) onStaleLock();
    return work();
  });
}

/**
 * Called holding the named lock: knex's lock row set (its holder died mid-migration) or doubled
 * (two processes created the table at once before this lock existed) is put back to one free row.
 * Returns true when it had to.
 */
async function resetStaleKnexLock(db: Knex): Promise<boolean> {
  if (!(await db.schema.hasTable(KNEX_LOCK_TABLE))) return false;
  const rows: Array<{ locked: number }> = await db(KNEX_LOCK_TABLE).select('is_locked as locked');
  if (rows.length === 1 && Number(rows[0]!.locked) === 0) return false;
  await db.migrate.forceFreeMigrationsLock();
  return true;
}
