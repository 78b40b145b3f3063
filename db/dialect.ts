import type { Knex } from 'knex';
import type { Engine } from '../knexfile';

export const engineOfKnex = (knex: Knex): Engine =>
  knex.client.config.client === 'mysql2' ? 'mysql' : 'sqlite';

/**
 * A locking read (SELECT ... FOR UPDATE) on MySQL/MariaDB. SQLite runs one write transaction at a
 * time, so it needs none (and has no such clause).
 */
export const lockForUpdate = <Q extends { forUpdate(): unknown }>(trx: Knex.Transaction, q: Q): Q =>
  engineOfKnex(trx) === 'mysql' ? (q.forUpdate() as Q) : q;

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

/**
 * Adds one to a counter row (creating it at 1) and returns the new value, in one round trip on
 * either engine. Called last in a transaction: the row stays locked only until COMMIT, which
 * orders the changes it counts.
 */
export async function bumpCounter(
  trx: Knex.Transaction,
  table: string,
  keyColumn: string,
  key: string | number,
  valueColumn: string,
): Promise<number> {
  if (engineOfKnex(trx) === 'mysql') {
    // LAST_INSERT_ID(expr) makes the server return the new value as this statement's insert id.
    const [result] = (await trx.raw(
      'INSERT INTO ?? (??, ??) VALUES (?, 1) ON DUPLICATE KEY UPDATE ?? = LAST_INSERT_ID(?? + 1)',
      [table, keyColumn, valueColumn, key, valueColumn, valueColumn],
    )) as [{ affectedRows: number; insertId: number }];
    return result.affectedRows === 1 ? 1 : Number(result.insertId);
  }
  const rows = (await trx.raw(
    'INSERT INTO ?? (??, ??) VALUES (?, 1) ON CONFLICT (??) DO UPDATE SET ?? = ?? + 1 RETURNING ??',
    [table, keyColumn, valueColumn, key, keyColumn, valueColumn, valueColumn, valueColumn],
  )) as Array<Record<string, number>>;
  return Number(Object.values(rows[0]!)[0]);
}

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
