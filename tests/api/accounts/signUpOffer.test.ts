import type { Knex } from 'knex';
import { beforeEach, describe, expect, it } from 'vitest';
import { insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const DAY = 86_400_000;

describe.skipIf(engineUnavailable())(`the public sign-up offer on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });
  beforeEach(async () => {
    await db('promoConfigs').delete();
  });

  const offer = async () => {
    // Anyone may read it: no sign-in, no CSRF token.
    const res = await new TestClient(server.url).get('/api/promotions/current');
    expect(res.status, res.text).toBe(200);
    return res.body.signUpOffer;
  };

  it('states the live welcome promo: its amount and its real end date', async () => {
    const end = Date.UTC(2099, 11, 31, 23, 59);
    await insertPromo(db, { creditAmountPence: 500, validUntil: end });
    expect(await offer()).toEqual({ creditAmount: 5, validUntil: '2099-12-31T23:59:00.000Z' });
  });

  it('has no end date for a promo that runs until switched off', async () => {
    await insertPromo(db, { creditAmountPence: 250, validUntil: null });
    expect(await offer()).toEqual({ creditAmount: 2.5, validUntil: null });
  });

  it('is none when there is no promo, or it is switched off, expired, not started, used up or code-only', async () => {
    expect(await offer()).toBeNull();
    const now = Date.now();
    await insertPromo(db, { isActive: false });
    await insertPromo(db, { validFrom: now - 60 * DAY, validUntil: now - DAY });
    await insertPromo(db, { validFrom: now + DAY });
    await insertPromo(db, { totalMaxUses: 10, currentUses: 10 });
    await insertPromo(db, { autoApply: false });
    expect(await offer()).toBeNull();
  });

  it('adds up every promo a new account gets, and ends with the first of them to end', async () => {
    const now = Date.now();
    await insertPromo(db, { creditAmountPence: 500, validUntil: now + 30 * DAY });
    await insertPromo(db, { creditAmountPence: 100, targetUserType: 'all', validUntil: now + 7 * DAY });
    await insertPromo(db, { creditAmountPence: 900, isActive: false });
    expect(await offer()).toEqual({ creditAmount: 6, validUntil: new Date(now + 7 * DAY).toISOString() });
  });
});
