import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../db/dialect';
import { migrationSource } from '../../../db/migrations';
import { insertUser } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// 048 adds referrals (docs/product.md#referrals): it rolls back and forward on both engines, and
// once in place one referred account has one referral and one referral one reward ledger row.
describe.skipIf(engineUnavailable())(`migration 048_referrals on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('rolls back and forward; a second referral or a second reward row is refused', async () => {
    const { db } = database;
    await db.migrate.down({ migrationSource, name: '048_referrals' });
    expect(await db.schema.hasTable('referrals')).toBe(false);
    expect(await db.schema.hasColumn('users', 'referral_code')).toBe(false);
    expect(await db.schema.hasColumn('credit_transactions', 'referral_id')).toBe(false);
    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasColumn('orders', 'card_fingerprint')).toBe(true);

    const referrerUserId = await insertUser(db);
    const referredUserId = await insertUser(db);
    const [referralId] = await db('referrals').insert({ referrerUserId, referredUserId, createdAt: 1 });
    const again = await db('referrals')
      .insert({ referrerUserId: await insertUser(db), referredUserId, createdAt: 2 })
      .catch((err: unknown) => err);
    expect(isUniqueViolation(again)).toBe(true);
    const reward = {
      userId: referrerUserId,
      type: 'credit',
      amountPence: 500,
      description: 'x',
      createdAt: 1,
    };
    await db('creditTransactions').insert({ ...reward, referralId });
    const twice = await db('creditTransactions')
      .insert({ ...reward, referralId })
      .catch((err: unknown) => err);
    expect(isUniqueViolation(twice)).toBe(true);
    // Other ledger rows (no referral) are not limited.
    await db('creditTransactions').insert([reward, reward]);
  });
});
