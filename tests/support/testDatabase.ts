import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { inject } from 'vitest';
import { migrateLatest, openDatabase } from '../../db/connection';
import type { Engine } from '../../knexfile';
import { copyMysqlTemplate, createSchema, mysqlAdmin, newSchemaName, schemaUrl } from './databaseTemplate';

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

const SQLITE_FILE = 'westcountry.sqlite';

/**
 * A brand-new, migrated database for one test file: a temp SQLite file or a fresh MySQL schema,
 * copied from the run's migrated template (tests/support/databaseTemplate.ts) rather than
 * migrated again. `migrated: false` leaves it empty (the start-up tests migrate it themselves).
 */
export async function createTestDatabase({ migrated = true } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-test-'));
  const engine = testEngine();
  if (engine === 'sqlite') {
    const templateDir = migrated ? inject('sqliteTemplateDir') : undefined;
    if (templateDir) fs.copyFileSync(path.join(templateDir, SQLITE_FILE), path.join(dataDir, SQLITE_FILE));
    const db = openDatabase({ dataDir, databaseUrl: undefined });
    if (migrated && !templateDir) await migrateLatest(db);
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
  const schema = newSchemaName('test');
  const admin = mysqlAdmin();
  const template = migrated ? inject('mysqlTemplate') : null;
  if (template) await copyMysqlTemplate(admin, template, schema);
  else await createSchema(admin, schema);
  const databaseUrl = schemaUrl(schema);
  const db = openDatabase({ dataDir, databaseUrl });
  if (migrated && !template) await migrateLatest(db);
  return {
    engine,
    db,
    databaseUrl,
    dataDir,
    drop: async () => {
      await db.destroy();
      await admin.raw('DROP DATABASE IF EXISTS ??', [schema]);
      await admin.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
