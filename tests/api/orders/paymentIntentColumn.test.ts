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

// 025 renames orders.stripe_payment_intent_id to payment_intent_id (it holds sandbox intents too):
// the intents already recorded stay with their orders, and one intent still pays for one order.
describe.skipIf(engineUnavailable())(`migration 025_payment_intent_id on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps each order its intent across the rename, and the intent unique', async () => {
    const { db } = database;
    const userId = await insertUser(db);
    const order = (intent: Record<string, string>) => ({
      userId,
      totalPence: 100,
      status: 'pending',
      paymentProvider: 'sandbox',
      createdAt: 1,
      updatedAt: 1,
      ...intent,
    });
    await db.migrate.down({ migrationSource, name: '025_payment_intent_id' });
    expect(await db.schema.hasColumn('orders', 'payment_intent_id')).toBe(false);
    const [id] = await db('orders').insert(order({ stripePaymentIntentId: 'sbx_pi_before' }));

    await db.migrate.latest({ migrationSource });
    expect(await db.schema.hasColumn('orders', 'stripe_payment_intent_id')).toBe(false);
    expect(await db('orders').where({ paymentIntentId: 'sbx_pi_before' }).first('id')).toEqual({ id });
    const twice = await db('orders')
      .insert(order({ paymentIntentId: 'sbx_pi_before' }))
      .catch((err: unknown) => err);
    expect(isUniqueViolation(twice)).toBe(true);
  });
});
