import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { counterBumpForBatch } from '../../../db/counters';
import { read, runBatch, write } from '../../../db/statementBatch';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// Several statements per round trip (db/statementBatch.ts): each one's own result, in order, one
// round trip on MariaDB, and a value is always a value, never SQL.
describe.skipIf(engineUnavailable())(`statement batches on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  const sent: string[] = [];
  const record = (q: { sql: string }) => sent.push(q.sql);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const now = Date.now();
    await db('siteSettings').insert([
      { key: 'batch_a', value: 'one', createdAt: now, updatedAt: now },
      { key: 'batch_b', value: 'two', createdAt: now, updatedAt: now },
    ]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  const settingRead = (trx: Knex, key: string) =>
    read(trx('siteSettings').where({ key }).select('key', 'value'), (rows: { value: string }[]) =>
      rows.map((r) => r.value),
    );

  it('gives each statement its own result, camelCased, skips the entries left out, and sends one round trip on MariaDB', async () => {
    sent.length = 0;
    db.on('query', record);
    const [a, skipped, bumped, again, b] = await db.transaction((trx) =>
      runBatch(
        trx,
        settingRead(trx, 'batch_a'),
        undefined,
        counterBumpForBatch(trx, 'cart_revisions', 'owner_key', 'g:batch', 'revision'),
        counterBumpForBatch(trx, 'cart_revisions', 'owner_key', 'g:batch', 'revision'),
        read(trx('siteSettings').where({ key: 'batch_b' }).select('createdAt')),
      ),
    );
    db.off('query', record);
    expect([a, skipped, bumped, again]).toEqual([['one'], undefined, 1, 2]);
    expect(Object.keys(b[0] as object)).toEqual(['createdAt']);
    const batches = sent.filter((sql) => !/^(BEGIN|COMMIT)/i.test(sql));
    expect(batches).toHaveLength(testEngine() === 'mysql' ? 1 : 4);
  });

  it('stops at the first failing statement: the batch rejects and what follows does not run', async () => {
    const now = Date.now();
    const failed = db.transaction((trx) =>
      runBatch(
        trx,
        write(trx('siteSettings').insert({ key: 'batch_c', value: 'x', createdAt: now, updatedAt: now })),
        write(
          trx('siteSettings').insert({ key: 'batch_a', value: 'duplicate', createdAt: now, updatedAt: now }),
        ),
        write(trx('siteSettings').insert({ key: 'batch_d', value: 'x', createdAt: now, updatedAt: now })),
      ),
    );
    await expect(failed).rejects.toThrow(/duplicate|unique/i);
    const keys = (await db('siteSettings')
      .where('key', 'like', 'batch_%')
      .orderBy('key')
      .pluck('key')) as string[];
    expect(keys).toEqual(['batch_a', 'batch_b']);
  });

  it('sends values as bindings: a value that reads as more SQL is only a value', async () => {
    const attack = "batch_a'; DELETE FROM site_settings; --";
    const [found, alsoFound] = await runBatch(db, settingRead(db, attack), settingRead(db, 'batch_b'));
    expect([found, alsoFound]).toEqual([[], ['two']]);
    expect(await db('siteSettings').where('key', 'like', 'batch_%').count({ n: '*' }).first()).toEqual({
      n: 2,
    });
  });
});
