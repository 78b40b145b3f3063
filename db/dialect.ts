import type { Knex } from 'knex';
import type { Engine } from '../knexfile';

export const engineOfKnex = (knex: Knex): Engine =>
  knex.client.config.client === 'mysql2' ? 'mysql' : 'sqlite';

/**
 * Table options for a new table: InnoDB, utf8mb4 and a case-insensitive collation on MySQL/MariaDB
 * (usernames and emails compare case-insensitively there); nothing on SQLite.
 */
export const tableDefaults =
  (knex: Knex) =>
  (t: Knex.CreateTableBuilder): void => {
    if (engineOfKnex(knex) !== 'mysql') return;
    t.engine('InnoDB');
    t.charset('utf8mb4');
    t.collate('utf8mb4_unicode_ci');
  };

interface DbError {
  code?: string;
  errno?: number;
  /** The driver's own error, when objection (db-errors) wrapped it. */
  nativeError?: unknown;
}

/**
 * The driver's error behind `err`. On MySQL/MariaDB objection wraps every error of a Model query
 * (db-errors: UniqueViolationError, DBError ...) and keeps the driver's as `nativeError`; plain
 * knex queries, and better-sqlite3's errors, are not wrapped.
 */
const driverError = (err: unknown): DbError => {
  const e = err as DbError;
  return e?.nativeError && typeof e.nativeError === 'object' ? (e.nativeError as DbError) : e;
};

/** A unique-key violation on either engine, from a knex or an objection query. */
export function isUniqueViolation(err: unknown): boolean {
  const e = driverError(err);
  return e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Deadlock or lock-wait timeout: the whole transaction may be retried. */
export function isRetryableTxError(err: unknown): boolean {
  const e = driverError(err);
  return e?.errno === 1213 || e?.errno === 1205 || e?.code === 'SQLITE_BUSY';
}

/**
 * `%text%` for a case-insensitive `lower(col) like ? escape '!'` on either engine: '!' escapes the
 * LIKE wildcards, since a backslash means different things in MySQL and SQLite literals.
 */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
