import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrateLatest, openDatabase } from '../../db/connection';
import { mysqlConnection } from '../../knexfile';

// Migrations run once per test run, not once per test file: a global setup migrates a template,
// and each file starts from a copy of it (tests/support/testDatabase.ts). A full migration costs
// about 2 s on MariaDB (some 160 DDL statements); replaying the template's tables costs about
// 0.2 s, and copying the SQLite file a few milliseconds.

export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** What a file needs to make a migrated MariaDB database without migrating. */
export interface MysqlTemplate {
  /** The migrated template schema, kept until the run ends. */
  schema: string;
  /** `SHOW CREATE TABLE` of each table: unlike CREATE TABLE ... LIKE, it keeps foreign keys. */
  createStatements: string[];
  /** Tables the migrations put rows in (knex's bookkeeping, settings they seed): copied too. */
  tablesWithRows: string[];
  /** `SHOW CREATE PROCEDURE` of each stored procedure (migration 051). */
  routineStatements: string[];
}

export const mysqlAdmin = (url = TEST_MYSQL_URL): Knex =>
  knexFactory({ client: 'mysql2', connection: mysqlConnection(url), pool: { min: 0, max: 1 } });

export const schemaUrl = (schema: string) => {
  const url = new URL(TEST_MYSQL_URL);
  url.pathname = `/${schema}`;
  return url.toString();
};

export const newSchemaName = (kind: 'tpl' | 'test') => `wcp_${kind}_${randomBytes(6).toString('hex')}`;

export async function createSchema(admin: Knex, schema: string): Promise<void> {
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [schema]);
}

/** Migrates a new template schema and reads back what copies need. */
export async function makeMysqlTemplate(admin: Knex): Promise<MysqlTemplate> {
  const schema = newSchemaName('tpl');
  await createSchema(admin, schema);
  const db = openDatabase({ dataDir: os.tmpdir(), databaseUrl: schemaUrl(schema) });
  try {
    await migrateLatest(db);
    const [rows] = (await db.raw(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name',
      [schema],
    )) as [{ name: string }[]];
    const createStatements: string[] = [];
    const tablesWithRows: string[] = [];
    for (const { name } of rows) {
      const [shown] = (await db.raw('SHOW CREATE TABLE ??', [name])) as [{ 'Create Table': string }[]];
      createStatements.push(shown.map((row) => row['Create Table']).join(''));
      const counted = (await db(name).count({ n: '*' })) as { n: number | string }[];
      if (Number(counted[0]?.n) > 0) tablesWithRows.push(name);
    }
    const [routines] = (await db.raw(
      "SELECT routine_name AS name FROM information_schema.routines WHERE routine_schema = ? AND routine_type = 'PROCEDURE' ORDER BY routine_name",
      [schema],
    )) as [{ name: string }[]];
    const routineStatements: string[] = [];
    for (const { name } of routines) {
      const [shown] = (await db.raw('SHOW CREATE PROCEDURE ??', [name])) as [
        Array<{ 'Create Procedure': string }>,
      ];
      routineStatements.push(shown[0]!['Create Procedure']);
    }
    return { schema, createStatements, tablesWithRows, routineStatements };
  } finally {
    await db.destroy();
  }
}

/** A new schema with the template's tables, rows and procedures, as if just migrated. */
export async function copyMysqlTemplate(admin: Knex, template: MysqlTemplate, schema: string): Promise<void> {
  await createSchema(admin, schema);
  // One connection (the admin pool has one), so the session settings hold for every statement.
  await admin.raw('SET FOREIGN_KEY_CHECKS = 0');
  try {
    await admin.raw('USE ??', [schema]);
    for (const statement of template.createStatements) await admin.raw(statement);
    for (const statement of template.routineStatements) await admin.raw(statement);
    for (const table of template.tablesWithRows) {
      await admin.raw('INSERT INTO ??.?? SELECT * FROM ??.??', [schema, table, template.schema, table]);
    }
  } finally {
    await admin.raw('SET FOREIGN_KEY_CHECKS = 1');
  }
}

/** The SQLite template: a migrated database file, copied for each test file. */
export async function makeSqliteTemplate(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-template-'));
  const db = openDatabase({ dataDir, databaseUrl: undefined });
  await migrateLatest(db);
  // Closing checkpoints the write-ahead log into the main file, so the file alone is the template.
  await db.destroy();
  return dataDir;
}
