// knex configuration for both engines. better-sqlite3 under DATA_DIR by default; mysql2 when
// DATABASE_URL is a mysql:// URL. The app, the CLI (server/dbCli.ts) and the tests all build their
// connection from here, so the engines cannot drift apart.
import path from 'node:path';
import type { Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';

export type Engine = 'sqlite' | 'mysql';

export interface DatabaseSettings {
  /** mysql://user:pass@host:port/db, or undefined for the embedded SQLite file. */
  databaseUrl?: string | undefined;
  dataDir: string;
}

export const engineOf = (databaseUrl: string | undefined): Engine =>
  databaseUrl && /^mysql2?:\/\//.test(databaseUrl) ? 'mysql' : 'sqlite';

/** mysql2 connection settings from a mysql:// URL (user and password may be percent-encoded). */
export function mysqlConnection(databaseUrl: string) {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.replace(/^\//, ''),
  };
}

export function knexConfig({ databaseUrl, dataDir }: DatabaseSettings): Knex.Config {
  // camelCase in code, snake_case in the database, for models and plain knex queries alike.
  const naming = knexSnakeCaseMappers();
  if (engineOf(databaseUrl) === 'mysql') {
    return {
      client: 'mysql2',
      connection: {
        ...mysqlConnection(databaseUrl as string),
        charset: 'utf8mb4',
        // SUM()/AVG() come back as DECIMAL: numbers, not strings, so both engines agree.
        decimalNumbers: true,
        supportBigNumbers: true,
        bigNumberStrings: false,
        // The hold path sends several statements per round trip (db/statementBatch.ts). Every
        // statement is compiled by knex with bindings; see docs/security.md, "SQL".
        multipleStatements: true,
      },
      pool: { min: 0, max: 20 },
      ...naming,
    };
  }
  if (databaseUrl && !databaseUrl.startsWith('sqlite:')) {
    throw new Error(
      `DATABASE_URL must be a mysql:// URL (or unset for SQLite); got ${databaseUrl.split(':')[0]}:`,
    );
  }
  const filename = databaseUrl?.startsWith('sqlite:')
    ? databaseUrl.replace(/^sqlite:(\/\/)?/, '')
    : path.join(dataDir, 'westcountry.sqlite');
  return {
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1, // one writer; better-sqlite3 is synchronous, so one connection is also the fastest
      afterCreate(
        conn: { pragma: (s: string) => unknown },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        done(null, conn);
      },
    },
    ...naming,
  };
}

export default knexConfig({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.DATA_DIR ?? 'data' });
