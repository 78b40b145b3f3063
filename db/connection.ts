import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { type DatabaseSettings, engineOf, knexConfig } from '../knexfile';
import { isUniqueViolation } from './dialect';
import { migrationSource } from './migrations';

/** Opens the configured database (creating DATA_DIR for the embedded SQLite file). */
export function openDatabase(settings: DatabaseSettings): Knex {
  if (engineOf(settings.databaseUrl) === 'sqlite') fs.mkdirSync(settings.dataDir, { recursive: true });
  return knexFactory(knexConfig(settings));
}

/**
 * Applies pending migrations. knex guards them with a lock table; a process that finds it locked
 * (another one is migrating right now) waits and tries again instead of failing its start-up.
 */
export async function migrateLatest(db: Knex, timeoutMs = 60_000): Promise<string[]> {
  const started = Date.now();
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
