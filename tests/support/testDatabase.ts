import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { inject } from 'vitest';
import { migrateLatest, openDatabase } from '../../db/connection';
import type { Engine } from '../../knexfile';
import { TEST_MYSQL_URL } from './mysqlGlobalSetup';

export const testEngine = (): Engine => (process.env.TEST_DB === 'mysql' ? 'mysql' : 'sqlite');

/** True when this run should skip its tests (the MySQL suite without a server, outside CI). */
export const engineUnavailable = () => testEngine() === 'mysql' && !inject('mysqlAvailable');

export interface TestDatabase {
  engine: Engine;
  db: Knex;
  databaseUrl: string | undefined;
  dataDir: string;
  drop: () => Promise<void>;
}

/**
 * A brand-new, migrated database for one test file: a temp SQLite file or a fresh MySQL schema.
 * `migrated: false` leaves it empty (the start-up tests migrate it themselves).
 */
export async function createTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-test-'));
  const engine = testEngine();
  if (engine === 'sqlite') {
    const db = openDatabase({ dataDir, databaseUrl: undefined });
    if (migrated) await migrateLatest(db);
    return {
      engine,
      db,
      databaseUrl: undefined,
      dataDir,
      drop: async () => {
        await db.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `wcp_test_${randomBytes(6).toString('hex')}`;
  const server = new URL(TEST_MYSQL_URL);
  const admin: Knex = knexFactory({ client: 'mysql2', connection: TEST_MYSQL_URL, pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  server.pathname = `/${name}`;
  const databaseUrl = server.toString();
  const db = openDatabase({ dataDir, databaseUrl });
  if (migrated) await migrateLatest(db);
  return {
    engine,
    db,
    databaseUrl,
    dataDir,
    drop: async () => {
      await db.destroy();
      await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
      await admin.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
