import { DBError, UniqueViolationError } from 'objection';
import { describe, expect, it } from 'vitest';
import { isRetryableTxError, isUniqueViolation } from '../../db/dialect';

// objection wraps every MySQL error of a Model query (db-errors) and keeps the driver's error as
// nativeError; the dialect checks must see through that (issue 16, point 4).

const mysqlError = (code: string, errno: number) =>
  Object.assign(new Error(code), { code, errno, sqlState: '23000', sqlMessage: code });

describe('db/dialect error checks', () => {
  it('a unique violation, raw or wrapped by objection', () => {
    const raw = mysqlError('ER_DUP_ENTRY', 1062);
    expect(isUniqueViolation(raw)).toBe(true);
    const wrapped = new UniqueViolationError({
      nativeError: raw,
      client: 'mysql',
      table: 'users',
      columns: ['username'],
      constraint: 'users_username_unique',
      schema: undefined,
    } as never);
    expect(isUniqueViolation(wrapped)).toBe(true);
    expect(isUniqueViolation(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('a deadlock or lock wait, raw or wrapped by objection, may be retried', () => {
    for (const [code, errno] of [
      ['ER_LOCK_DEADLOCK', 1213],
      ['ER_LOCK_WAIT_TIMEOUT', 1205],
    ] as const) {
      const raw = mysqlError(code, errno);
      expect(isRetryableTxError(raw)).toBe(true);
      expect(isRetryableTxError(new DBError({ nativeError: raw, client: 'mysql' } as never))).toBe(true);
    }
    expect(isRetryableTxError(mysqlError('ER_DUP_ENTRY', 1062))).toBe(false);
  });
});
