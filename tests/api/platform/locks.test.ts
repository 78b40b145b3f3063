import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_ORDER, LockOrderError, lastLocked, lockRows, shareRows } from '../../../db/locks';
import { insertCompetition, insertUser } from '../../support/fixtures';
import { createTestDatabase, type TestDatabase, testEngine } from '../../support/testDatabase';

// The lock order (db/locks.ts): locks only inside a transaction, never a kind earlier than one
// already held, on either engine; on MariaDB they are real locking reads, on SQLite plain reads.

describe(`lock order on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  let userId: number;
  let competitionId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    userId = await insertUser(db);
    competitionId = await insertCompetition(db);
  });
  afterAll(() => database.drop());

  const user = (q: Knex) => q('users').where({ id: userId }).first('id');
  const competition = (q: Knex) => q('competitions').where({ id: competitionId }).first('id');
  const tickets = (q: Knex) => q('tickets').where({ competitionId }).select('id');

  it('refuses a lock outside a transaction', () => {
    expect(() => lockRows(db, 'user', user(db))).toThrow(LockOrderError);
    expect(() => shareRows(db, 'ticket', tickets(db))).toThrow(/only inside a transaction/);
    // A plain read (locking off) is no lock, and fine anywhere.
    expect(() => shareRows(db, 'ticket', tickets(db), false)).not.toThrow();
  });

  it('refuses a kind earlier than one the transaction holds, and rolls it back', async () => {
    await expect(
      db.transaction(async (trx) => {
        await lockRows(trx, 'competition', competition(trx));
        await trx('users').where({ id: userId }).update({ firstName: 'Changed' });
        await lockRows(trx, 'user', user(trx));
      }),
    ).rejects.toThrow(/A user lock after a competition lock breaks the lock order/);
    expect((await db('users').where({ id: userId }).first('firstName')).firstName).not.toBe('Changed');
  });

  it('takes locks in the order, several of one kind too, on either engine', async () => {
    const sql: string[] = [];
    await db.transaction(async (trx) => {
      const locked = lockRows(trx, 'user', user(trx));
      sql.push(locked.toString());
      expect(await locked).toEqual({ id: userId });
      await lockRows(trx, 'user', trx('users').where({ id: userId }).select('id'));
      expect(await lockRows(trx, 'competition', competition(trx))).toEqual({ id: competitionId });
      const shared = shareRows(trx, 'ticket', tickets(trx));
      sql.push(shared.toString());
      expect(await shared).toEqual([]);
      expect(lastLocked(trx)).toBe('ticket');
    });
    if (testEngine() === 'mysql') {
      expect(sql[0]).toMatch(/for update$/i);
      expect(sql[1]).toMatch(/(for share|lock in share mode)$/i);
    } else {
      expect(sql.join(' ')).not.toMatch(/for update|for share/i);
    }
  });

  it('starts every transaction afresh', async () => {
    await db.transaction(async (trx) => {
      await lockRows(trx, LOCK_ORDER.at(-1)!, trx('complaints').select('id'));
    });
    await db.transaction(async (trx) => {
      expect(lastLocked(trx)).toBeUndefined();
      await lockRows(trx, LOCK_ORDER[0], trx('promoConfigs').select('id'));
    });
  });
});
