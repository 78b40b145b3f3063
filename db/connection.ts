import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { type DatabaseSettings, engineOf, knexConfig } from '../knexfile';
import { isUniqueViolation } from './dialect';
import { withMigrationLock } from './migrationLock';
import { migrationSource } from './migrations';

/** Opens the configured database (creating DATA_DIR for the embedded SQLite file). */
export function openDatabase(settings: DatabaseSettings): Knex {
  if (engineOf(settings.databaseUrl) === 'sqlite') fs.mkdirSync(settings.dataDir, { recursive: true });
  return knexFactory(knexConfig(settings));
}

export interface MigrateOptions {
  /** How long to wait for another process's migrations before giving up. */
  timeoutMs?: number;
  /** Told when knex's lock was found left behind by a process that died mid-migration. */
  onStaleLock?: () => void;
}

/**
 * Applies pending migrations; safe with any number of processes starting at once. On MySQL/MariaDB
 * they run under a named lock (db/migrationLock.ts), so one process migrates and the others wait,
 * then find nothing to do. SQLite is one host and, in practice, one process per file: knex's lock
 * table guards it, and a process that finds it locked waits and tries again until `timeoutMs`.
 */
export async function migrateLatest(db: Knex, options: MigrateOptions = {}): Promise<string[]> {
  const { timeoutMs = 120_000, onStaleLock } = options;
  const started = Date.now();
  return withMigrationLock(
    db,
    timeoutMs,
    async () => {
      for (;;) {
        try {
          const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
          return applied;
        } catch (err) {
          const locked = err instanceof Error && /already locked/i.test(err.message);
          if (!locked || Date.now() - started > timeoutMs) throw err;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    },
    onStaleLock,
  );
}

/**
 * True for exactly one caller per database: the first to insert the marker row. Used so that,
 * of several processes starting on an empty database, only one seeds the demo data.
 */
export async function claimOnce(db: Knex, key: string): Promise<boolean> {
  const now = Date.now();
  try {
    await db('siteSettings').insert({
      key,
      value: new Date(now).toISOString(),
      createdAt: now,
      updatedAt: now,
    });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

export async function rollbackAll(db: Knex): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}

/** Migrations this code knows that the database has not applied yet (readiness: none). */
export async function pendingMigrations(db: Knex): Promise<string[]> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], Array<{ file: string }>];
  return pending.map((m) => m.file);
}
