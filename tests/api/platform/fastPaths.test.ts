import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionPerRequest } from '../../../fastpaths/pinnedConnection';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// FAST_PATHS and the hold's pool connection (fastpaths/pinnedConnection.ts): on MariaDB with the
// fast paths on, everything a request does, its transaction included, runs on one connection
// taken once and given back; off (and on SQLite) the request runs on the app's knex as it is.
describe.skipIf(engineUnavailable())(`one connection per request on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  beforeAll(async () => {
    database = await createTestDatabase({ migrated: false });
    db = database.db;
  });
  afterAll(async () => {
    await database?.drop();
  });

  const connectionId = async (on: Knex): Promise<number> => {
    const [rows] = (await on.raw('SELECT CONNECTION_ID() AS id')) as [{ id: number }[]];
    return Number(rows[0]!.id);
  };

  it.runIf(testEngine() === 'mysql')(
    'on: reads and the transaction share one connection, returned to the pool after',
    async () => {
      const ids = await connectionPerRequest(
        db,
        true,
      )(async (pinned) => {
        expect(pinned).not.toBe(db);
        const first = await connectionId(pinned);
        const inTransaction = await pinned.transaction((trx) => connectionId(trx));
        return [first, inTransaction, await connectionId(pinned)];
      });
      expect(new Set(ids).size).toBe(1);
      const pool = (db.client as { pool: { numUsed(): number } }).pool;
      expect(pool.numUsed()).toBe(0);
    },
  );

  it('off: the request gets the app knex itself', async () => {
    const given = await connectionPerRequest(db, false)(async (on) => on);
    expect(given).toBe(db);
  });

  it.runIf(testEngine() === 'sqlite')('on SQLite: the one connection is the app knex itself', async () => {
    const given = await connectionPerRequest(db, true)(async (on) => on);
    expect(given).toBe(db);
  });
});
