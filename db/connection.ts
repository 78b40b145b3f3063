import fs from 'node:fs';
import knexFactory, { type Knex } from 'knex';
import { type DatabaseSettings, engineOf, knexConfig } from '../knexfile';
import { migrationSource } from './migrations';

/** Opens the configured database (creating DATA_DIR for the embedded SQLite file). */
export function openDatabase(settings: DatabaseSettings): Knex {
  if (engineOf(settings.databaseUrl) === 'sqlite') fs.mkdirSync(settings.dataDir, { recursive: true });
  return knexFactory(knexConfig(settings));
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function rollbackAll(db: Knex): Promise<void> {
  await db.migrate.rollback({ migrationSource }, true);
}
