import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { verifiedClient } from '../../support/accounts';
import { del, ledgerMismatches, put, signedInAdmin } from '../../support/admin';
import { insertPromo } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

describe.skipIf(engineUnavailable())(`admin promos and credit on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  const balance = async (userId: number) =>
    Number((await db('users').where({ id: userId }).first()).siteCreditPence);

  it('creates a promo with the form defaults, edits it, and lists active and all', async () => {
    const created = await admin.post('/api/admin/promos', { name: 'Spring bonus', creditAmount: 2.5 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Spring bonus',
      creditAmount: 2.5,
      targetUserType: 'new_user',
      isActive: true,
      autoApply: true,
      maxUsesPerUser: 1,
      totalMaxUses: 1000,
      currentUses: 0,
      validUntil: null,
      description: null,
    });
    expect(Date.parse(created.body.validFrom)).toBeLessThanOrEqual(Date.now());
    expect((await db('promoConfigs').where({ id: created.body.id }).first()).creditAmountPence).toBe(250);

    const edited = await put(admin, `/api/admin/promos/${created.body.id}`, {
      isActive: false,
      validUntil: '',
      targetUserType: 'all',
      creditAmount: '3.00',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      isActive: false,
      validUntil: null,
      targetUserType: 'all',
      creditAmount: 3,
    });

    const expired = await insertPromo(db, { name: 'Expired', validUntil: Date.now() - 1000 });
    const active = (await admin.get('/api/admin/promos?active=true')).body.map((p: { id: number }) => p.id);
    const all = (await admin.get('/api/admin/promos')).body.map((p: { id: number }) => p.id);
    expect(active).not.toContain(created.body.id);
    expect(active).not.toContain(expired);
    expect(all).toEqual(expect.arrayContaining([created.body.id, expired]));
    const audit = await db('auditLog')
      .where({ entityType: 'promo', entityId: String(created.body.id) })
      .orderBy('id');
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['promo.create', 'promo.update']);
  });

  it('refuses bad promo input with messages and stores nothing', async () => {
    const before = Number((await db('promoConfigs').count({ n: '*' }).first())!.n);
    for (const [body, field, message] of [
      [{ creditAmount: 5 }, 'name', 'Name is required'],
      [{ name: 'x' }, 'creditAmount', 'Credit amount is required'],
      [{ name: 'x', creditAmount: -1 }, 'creditAmount', 'Credit amount must be at least 0'],
      [
        { name: 'x', creditAmount: 5, maxUsesPerUser: 0 },
        'maxUsesPerUser',
        'Max uses per user must be at least 1',
      ],
      [{ name: 'x', creditAmount: 5, totalMaxUses: 0 }, 'totalMaxUses', 'Total max uses must be at least 1'],
      [
        { name: 'x', creditAmount: 5, targetUserType: 'vip' },
        'targetUserType',
        'Target users must be new_user or all',
      ],
      [
        { name: 'x', creditAmount: 5, validFrom: '2030-01-02', validUntil: '2030-01-01' },
        'validUntil',
        'Valid until must be after valid from',
      ],
    ] as const) {
      const res = await admin.post('/api/admin/promos', body);
      expect(res.status, field).toBe(400);
      expect(res.body.details.fields[field]).toBe(message);
    }
    expect(Number((await db('promoConfigs').count({ n: '*' }).first())!.n)).toBe(before);
    const id = await insertPromo(db, { name: 'Used', currentUses: 5 });
    const low = await put(admin, `/api/admin/promos/${id}`, { totalMaxUses: 4 });
    expect(low.status).toBe(409);
    expect((await put(admin, '/api/admin/promos/999999', { name: 'x' })).status).toBe(404);
  });

  it('deletes a promo with its credit transactions; balances follow through the ledger, spent credit stops at £0', async () => {
    await db('promoConfigs').update({ isActive: false }); // only this test's promo is granted
    const promo = await insertPromo(db, { name: 'Welcome 5', creditAmountPence: 500 });
    const { user: keeper } = await verifiedClient(server.url, server.database.dataDir);
    const { user: spender } = await verifiedClient(server.url, server.database.dataDir);
    expect(await balance(keeper.id)).toBe(500);
    // The spender also has other credit and has spent most of the total.
    await db.transaction(async (trx) => {
      await trx('creditTransactions').insert([
        {
          userId: spender.id,
          type: 'credit',
          amountPence: 100,
          description: 'Goodwill',
          createdAt: Date.now(),
        },
        { userId: spender.id, type: 'debit', amountPence: 450, description: 'Order', createdAt: Date.now() },
      ]);
      await trx('users').where({ id: spender.id }).update({ siteCreditPence: 150 });
    });
    expect(await ledgerMismatches(db)).toEqual([]);

    const res = await del(admin, `/api/admin/promos/${promo}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ message: 'Promo deleted successfully', transactionsRemoved: 2 });
    expect(await db('promoConfigs').where({ id: promo }).first()).toBeUndefined();
    expect(await db('creditTransactions').where({ promoConfigId: promo })).toEqual([]);
    expect(await balance(keeper.id)).toBe(0);
    expect(await balance(spender.id)).toBe(0);
    expect(await ledgerMismatches(db)).toEqual([]);
    expect((await del(admin, `/api/admin/promos/${promo}`)).status).toBe(404);
  });

  it('resets every balance to £0 through ledger entries', async () => {
    const promo = await insertPromo(db, { name: 'Reset me', creditAmountPence: 700 });
    const a = await verifiedClient(server.url, server.database.dataDir);
    const b = await verifiedClient(server.url, server.database.dataDir);
    expect(await balance(a.user.id)).toBe(700);
    const res = await admin.post('/api/admin/reset-all-credits');
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toMatch(/^All site credit has been reset to £0\.00/);
    const users = (await db('users').select('siteCreditPence')) as Array<{ siteCreditPence: number }>;
    expect(users.every((u) => Number(u.siteCreditPence) === 0)).toBe(true);
    expect(await ledgerMismatches(db)).toEqual([]);
    const debit = await db('creditTransactions').where({ userId: b.user.id, type: 'debit' }).first();
    expect(Number(debit.amountPence)).toBe(700);
    expect((await a.client.get('/api/user/credit')).body.credit).toBe(0);
    await db('promoConfigs').where({ id: promo }).update({ isActive: false });
    expect(await db('auditLog').where({ action: 'credit.reset' })).toHaveLength(1);
  });
});
