import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkToken,
  registeredClient,
  registration,
  verifiedClient,
  waitForEmail,
} from '../../support/accounts';
import { insertCompetition, insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

const countUsers = async (db: Knex) =>
  Number(((await db('users').count({ n: '*' }).first()) as { n: number }).n);

describe.skipIf(engineUnavailable())(`registration on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    await insertPromo(db, { name: 'New User Welcome Credit', creditAmountPence: 500 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['short username', { username: 'ab' }, 'Username must be at least 3 characters'],
    ['missing username', { username: undefined }, 'Username is required'],
    [
      'username with @',
      { username: 'me@home' },
      'Username can only contain letters, numbers, dots, hyphens and underscores',
    ],
    ['bad email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['short password', { password: '12345' }, 'Password must be at least 6 characters'],
    ['missing phone', { phoneNumber: '' }, 'Phone number is required'],
    ['short phone', { phoneNumber: '0770090' }, 'Phone number must be at least 10 digits'],
    ['long phone', { phoneNumber: '0770090012345678' }, 'Phone number must be at most 15 digits'],
    ['letters in phone', { phoneNumber: '07700 ABC 123' }, 'Please enter a valid phone number'],
    ['under 18', { ageConfirmation: false }, 'You must confirm you are 18 or over'],
    ['not UK', { ukResidency: false }, 'You must be a UK resident to participate'],
    ['terms not agreed', { termsAgreement: undefined }, 'You must agree to the Terms and Conditions'],
    ['checkbox as string', { termsAgreement: 'true' }, 'You must agree to the Terms and Conditions'],
  ];

  for (const [name, override, message] of invalid) {
    it(`refuses ${name} with "${message}" and stores nothing`, async () => {
      const client = new TestClient(server.url);
      await client.fetchCsrfToken();
      const before = await countUsers(db);
      const res = await client.post('/api/register', registration(override));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
      expect(res.body.code).toBe('validation_failed');
      expect(await countUsers(db)).toBe(before);
    });
  }

  it('creates the account, signs it in, and never returns the password hash', async () => {
    const { client, user, body } = await registeredClient(server.url);
    // The welcome credit waits for the address to be confirmed (accountSecurity.test.ts).
    expect(user).toMatchObject({
      username: body.username,
      email: body.email,
      role: 'user',
      siteCredit: 0,
      emailVerified: false,
    });
    expect(JSON.stringify(user)).not.toMatch(/password|scrypt/i);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const stored = await db('users').where({ id: user.id }).first();
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.passwordHash).not.toContain(body.password);
  });

  it('answers 409 for a username or email already in use, whatever the case', async () => {
    const { body } = await registeredClient(server.url);
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const sameName = await client.post(
      '/api/register',
      registration({ username: body.username.toUpperCase() }),
    );
    expect(sameName.status).toBe(409);
    expect(sameName.body.message).toBe('That username is already taken. Please choose another.');
    const sameEmail = await client.post('/api/register', registration({ email: body.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.message).toBe(
      'An account with this email address already exists. Please log in instead.',
    );
  });

  it('ignores role, siteCredit and id in the body', async () => {
    const { user } = await verifiedClient(server.url, server.database.dataDir, {
      role: 'admin',
      siteCredit: 1000,
      siteCreditPence: 99999,
      id: 1,
    });
    expect(user.role).toBe('user');
    expect(user.siteCredit).toBe(5); // the welcome promo only
    expect(user.id).not.toBe(1);
    const stored = await db('users').where({ id: user.id }).first();
    expect(stored).toMatchObject({ role: 'user', siteCreditPence: 500 });
  });

  it('grants the welcome promo once, with a ledger line, and keeps balance = ledger sum', async () => {
    const { client, user } = await verifiedClient(server.url, server.database.dataDir);
    expect((await client.get('/api/user/credit')).body).toEqual({ credit: 5 });
    const history = await client.get('/api/user/credit/transactions');
    expect(history.body).toEqual([
      {
        id: expect.any(Number),
        type: 'credit',
        amount: 5,
        description: 'New User Welcome Credit',
        createdAt: expect.any(String),
      },
    ]);
    const ledger = await db('creditTransactions').where({ userId: user.id }).select('amountPence', 'type');
    const sum = ledger.reduce((s, r) => s + (r.type === 'credit' ? r.amountPence : -r.amountPence), 0);
    expect(sum).toBe((await db('users').where({ id: user.id }).first()).siteCreditPence);
  });

  it('carries the guest cart into the new account', async () => {
    const client = new TestClient(server.url);
    const token = await client.fetchCsrfToken();
    const sessions = await db('sessions').select('data');
    const guestId = sessions.map((s) => JSON.parse(s.data)).find((d) => d.csrfToken === token).guestId;
    const competitionId = await insertCompetition(db);
    const t = Date.now();
    const [cartItemId] = await db('cartItems').insert({
      guestId,
      competitionId,
      quantity: 1,
      selectedNumbers: '[]',
      reservedAt: t,
      expiresAt: t + 600_000,
      createdAt: t,
      updatedAt: t,
    });
    const res = await client.post('/api/register', registration({ guestSessionId: 'someone-elses-id' }));
    expect(res.status).toBe(201);
    expect((await db('cartItems').where({ id: cartItemId }).first()).userId).toBe(res.body.id);
  });
});

describe.skipIf(engineUnavailable())(`welcome promo under concurrency on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('20 simultaneous confirmations never exceed totalMaxUses', async () => {
    const db = server.database.db;
    const promoId = await insertPromo(db, { name: 'Capped welcome', totalMaxUses: 5 });
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const c = new TestClient(server.url);
        await c.fetchCsrfToken();
        return c;
      }),
    );
    const bodies = clients.map(() => registration());
    const registered = await Promise.all(clients.map((c, i) => c.post('/api/register', bodies[i])));
    expect(registered.map((r) => r.status)).toEqual(Array(20).fill(201));
    await Promise.all(clients.map((c) => c.fetchCsrfToken())); // renewed with the signed-in session
    const tokens: string[] = [];
    for (const b of bodies) {
      const mail = await waitForEmail(server.database.dataDir, b.email, '/verify-email?token=');
      tokens.push(linkToken(mail, '/verify-email'));
    }
    const results = await Promise.all(
      clients.map((c, i) => c.post('/api/verify-email', { token: tokens[i] })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const credited = results.filter((r) => r.body.welcomeCredit === 5).length;
    expect(credited).toBe(5);
    const promo = await db('promoConfigs').where({ id: promoId }).first();
    expect(promo.currentUses).toBe(5);
    const grants = await db('creditTransactions').where({ promoConfigId: promoId }).count({ n: '*' }).first();
    expect(Number(grants?.n)).toBe(5);
    // Every balance equals its ledger.
    const mismatches = await db('users as u')
      .leftJoin('creditTransactions as t', 't.userId', 'u.id')
      .groupBy('u.id', 'u.siteCreditPence')
      .havingRaw(
        "u.site_credit_pence <> COALESCE(SUM(CASE WHEN t.type = 'credit' THEN t.amount_pence ELSE -t.amount_pence END), 0)",
      )
      .select('u.id');
    expect(mismatches).toEqual([]);
  }, 60_000);

  it('skips inactive, expired, not-yet-valid and manual promos', async () => {
    const db = server.database.db;
    await db('promoConfigs').update({ isActive: false });
    await insertPromo(db, { name: 'Inactive', isActive: false });
    await insertPromo(db, { name: 'Expired', validUntil: Date.now() - 1000 });
    await insertPromo(db, { name: 'Future', validFrom: Date.now() + 60_000 });
    await insertPromo(db, { name: 'Manual', autoApply: false });
    await insertPromo(db, { name: 'For everyone', targetUserType: 'all', creditAmountPence: 250 });
    const { client } = await verifiedClient(server.url, server.database.dataDir);
    const history = await client.get('/api/user/credit/transactions');
    expect(history.body.map((t: { description: string }) => t.description)).toEqual(['For everyone']);
    expect((await client.get('/api/user/credit')).body).toEqual({ credit: 2.5 });
  });
});
