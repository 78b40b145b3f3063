import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { ALL_TAKEN, ALREADY_USED, UNKNOWN_CODE } from '../../../api/accounts/promoCodes';
import { ledgerMismatches, put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

let n = 0;
/** A code-only promo (auto-apply off, so registration never grants it); returns its id and code. */
async function codePromo(db: Knex, fields: Parameters<typeof insertPromo>[1] = {}) {
  const code = `SAVE${process.pid}X${++n}`;
  const id = await insertPromo(db, {
    name: `Code promo ${n}`,
    autoApply: false,
    targetUserType: 'all',
    ...fields,
  });
  await db('promoConfigs').where({ id }).update({ code });
  return { id, code };
}

describe.skipIf(engineUnavailable())(`promo codes on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const creditRows = (userId: number, promoConfigId: number) =>
    db('creditTransactions').where({ userId, promoConfigId, type: 'credit' });

  it('adds the credit once, as a ledger row in the credit history, whatever case it is typed in', async () => {
    const { id, code } = await codePromo(db, { creditAmountPence: 300, maxUsesPerUser: 1 });
    const { client, user } = await signedInCustomer(server.url);
    const res = await client.post('/api/account/promo-code', { code: ` ${code.toLowerCase()} ` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ amount: 3, credit: 3, description: `Promo code ${code}: Code promo ${n}` });
    expect((await client.get('/api/user/credit')).body).toEqual({ credit: 3 });
    const history = (await client.get('/api/user/credit/transactions')).body;
    expect(history[0]).toMatchObject({ type: 'credit', amount: 3, description: res.body.description });
    expect((await db('promoConfigs').where({ id }).first()).currentUses).toBe(1);

    const again = await client.post('/api/account/promo-code', { code });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ALREADY_USED);
    expect(await creditRows(user.id, id)).toHaveLength(1);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses unknown, switched-off, not yet started, expired and new-customer-only codes, changing nothing', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const off = await codePromo(db, { isActive: false });
    const later = await codePromo(db, { validFrom: Date.now() + 86_400_000 });
    const gone = await codePromo(db, { validFrom: Date.now() - 86_400_000, validUntil: Date.now() - 1000 });
    // Started after this account was opened, for new customers only.
    const fresh = await codePromo(db, { targetUserType: 'new_user', validFrom: Date.now() + 1000 });
    await db('promoConfigs')
      .where({ id: fresh.id })
      .update({ validFrom: Date.now() - 10 });
    await db('users')
      .where({ id: user.id })
      .update({ createdAt: Date.now() - 86_400_000 });
    const cases: Array<[string, number, string]> = [
      ['NO-SUCH-CODE', 400, UNKNOWN_CODE],
      [off.code, 400, UNKNOWN_CODE],
      [later.code, 400, 'That promo code is not active yet.'],
      [gone.code, 400, 'That promo code has expired.'],
      [fresh.code, 400, 'That promo code is for new customers only.'],
      ['x', 400, 'A promo code is 3 to 32 letters, numbers or hyphens'],
      ['', 400, 'Enter a promo code'],
    ];
    for (const [code, status, message] of cases) {
      const res = await client.post('/api/account/promo-code', { code });
      expect(res.status, code).toBe(status);
      expect(res.body.message, code).toBe(message);
    }
    expect(await db('creditTransactions').where({ userId: user.id })).toEqual([]);
  });

  it('needs a signed-in customer', async () => {
    const { code } = await codePromo(db);
    const { client } = await signedInCustomer(server.url);
    await client.post('/api/logout', {});
    await client.fetchCsrfToken();
    expect((await client.post('/api/account/promo-code', { code })).status).toBe(401);
  });

  it('never exceeds the per-customer limit under parallel redemptions by one customer', async () => {
    const { id, code } = await codePromo(db, { maxUsesPerUser: 2, totalMaxUses: 1000 });
    const { client, user } = await signedInCustomer(server.url);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => client.post('/api/account/promo-code', { code })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.message === ALREADY_USED)).toBe(true);
    expect(await creditRows(user.id, id)).toHaveLength(2);
    expect((await db('promoConfigs').where({ id }).first()).currentUses).toBe(2);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('never exceeds the total limit under parallel redemptions by many customers', async () => {
    const { id, code } = await codePromo(db, { totalMaxUses: 2 });
    const customers = await Promise.all(Array.from({ length: 5 }, () => signedInCustomer(server.url)));
    const answers = await Promise.all(
      customers.map(({ client }) => client.post('/api/account/promo-code', { code })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.message)).toEqual(
      Array(3).fill(ALL_TAKEN),
    );
    expect(await db('creditTransactions').where({ promoConfigId: id })).toHaveLength(2);
    expect((await db('promoConfigs').where({ id }).first()).currentUses).toBe(2);
    expect(await ledgerMismatches(db)).toEqual([]);
  }, 60_000);

  it('lets the admin set, change and clear a promo code; two promos cannot share one', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const created = await admin.post('/api/admin/promos', {
      name: 'Black Friday',
      creditAmount: 2,
      autoApply: false,
      code: 'friday-26',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.code).toBe('FRIDAY-26');
    const clash = await admin.post('/api/admin/promos', { name: 'Copy', creditAmount: 1, code: 'Friday-26' });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toBe('Another promo already uses that code');
    expect(await db('promoConfigs').where({ name: 'Copy' })).toEqual([]);
    const bad = await admin.post('/api/admin/promos', { name: 'Bad', creditAmount: 1, code: 'no spaces' });
    expect(bad.status).toBe(400);

    const changed = await put(admin, `/api/admin/promos/${created.body.id}`, { code: 'cyber-26' });
    expect(changed.body.code).toBe('CYBER-26');
    const { client } = await signedInCustomer(server.url);
    expect((await client.post('/api/account/promo-code', { code: 'FRIDAY-26' })).body.message).toBe(
      UNKNOWN_CODE,
    );
    expect((await client.post('/api/account/promo-code', { code: 'cyber-26' })).status).toBe(200);
    const cleared = await put(admin, `/api/admin/promos/${created.body.id}`, { code: '' });
    expect(cleared.body.code).toBeNull();
  });
});

describe.skipIf(engineUnavailable())(`promos for all users on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('grants a live auto-apply promo for all users once, at the next sign-in of an existing customer', async () => {
    const { user } = await signedInCustomer(server.url);
    const { username } = user;
    // Created after the account: registration could not have granted them.
    const forAll = await insertPromo(db, {
      name: 'Winter thank-you',
      targetUserType: 'all',
      creditAmountPence: 200,
    });
    const forNew = await insertPromo(db, {
      name: 'New only',
      targetUserType: 'new_user',
      creditAmountPence: 700,
    });
    const off = await insertPromo(db, { name: 'Code only', targetUserType: 'all', autoApply: false });
    const signIn = async () => {
      const again = new TestClient(server.url);
      await again.fetchCsrfToken();
      return again.post('/api/login', { username, password: 'secret123' });
    };
    const first = await signIn();
    expect(first.status, first.text).toBe(200);
    expect(first.body.siteCredit).toBe(2);
    await Promise.all([signIn(), signIn()]);
    const rows = await db('creditTransactions').where({ userId: user.id });
    expect(rows.map((r) => [r.promoConfigId, r.amountPence, r.description])).toEqual([
      [forAll, 200, 'Winter thank-you'],
    ]);
    expect(await db('creditTransactions').whereIn('promoConfigId', [forNew, off])).toEqual([]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
