import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../db/dialect';
import { holdTickets, insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// The ticket invariants are enforced by the database itself, not only by application code.
describe.skipIf(engineUnavailable())(`database constraints on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  let competitionId: number;
  let userId: number;
  const t = Date.now();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    competitionId = await insertCompetition(db, { totalTickets: 10 });
    userId = await insertUser(db);
    await sellTickets(db, competitionId, userId, [1]);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('refuses a second row for the same competition and number (held or sold twice)', async () => {
    const err = await holdTickets(db, competitionId, [1], t + 60_000).catch((e) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(await db('tickets').where({ competitionId, number: 1 }).count({ n: '*' }).first()).toEqual({
      n: 1,
    });
  });

  it('refuses a hold without an expiry or owner, and a sale without an order', async () => {
    await expect(
      db('tickets').insert({ competitionId, number: 2, status: 'reserved', createdAt: t, updatedAt: t }),
    ).rejects.toThrow();
    await expect(
      db('tickets').insert({ competitionId, number: 3, status: 'sold', userId, createdAt: t, updatedAt: t }),
    ).rejects.toThrow();
    await expect(
      db('tickets').insert({ competitionId, number: 4, status: 'given-away', createdAt: t, updatedAt: t }),
    ).rejects.toThrow();
  });

  it('refuses ticketsSold above totalTickets or below zero', async () => {
    await expect(
      db('competitions').where({ id: competitionId }).update({ ticketsSold: 11 }),
    ).rejects.toThrow();
    await expect(
      db('competitions').where({ id: competitionId }).update({ ticketsSold: -1 }),
    ).rejects.toThrow();
  });

  it('refuses usernames and emails that differ only in case', async () => {
    await insertUser(db, { username: 'Penrose', email: 'penrose@example.com' });
    expect(
      isUniqueViolation(
        await insertUser(db, { username: 'penrose', email: 'x@example.com' }).catch((e) => e),
      ),
    ).toBe(true);
    expect(
      isUniqueViolation(
        await insertUser(db, { username: 'other', email: 'PENROSE@example.com' }).catch((e) => e),
      ),
    ).toBe(true);
  });

  it('refuses a promo whose uses exceed its cap', async () => {
    const [promoId] = await db('promoConfigs').insert({
      name: 'Capped',
      creditAmountPence: 500,
      validFrom: t,
      totalMaxUses: 1,
      currentUses: 1,
      createdAt: t,
      updatedAt: t,
    });
    await expect(db('promoConfigs').where({ id: promoId }).increment('currentUses', 1)).rejects.toThrow();
  });

  it('refuses a negative site credit balance', async () => {
    await expect(db('users').where({ id: userId }).update({ siteCreditPence: -1 })).rejects.toThrow();
  });

  it('releases held numbers when their cart item is deleted', async () => {
    const cartItemId = await holdTickets(db, competitionId, [5, 6], t + 60_000);
    await db('cartItems').where({ id: cartItemId }).delete();
    expect(
      await db('tickets').where({ competitionId }).whereIn('number', [5, 6]).count({ n: '*' }).first(),
    ).toEqual({
      n: 0,
    });
  });
});
