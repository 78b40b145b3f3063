import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { mayReceiveMarketing } from '../../../api/platform/email/consent';
import { formatLongDate } from '../../../contract/londonTime';
import { linkToken, registeredClient, registration, waitForEmail } from '../../support/accounts';
import { signedInAdmin } from '../../support/admin';
import { insertCompetition, insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// A break binds the person, not one account row (DCMS prize-draw code, self-exclusion): the
// exclusion register matches the normalised mailbox, so a second account on the same mailbox, a
// deleted-and-recreated account and a postcard without an account id are all refused until the
// break ends. "New customers only" promo codes count per mailbox too.

let n = 0;
/** Two spellings of one Gmail mailbox (dots, +tag, googlemail.com), unique per call. */
function mailbox() {
  n++;
  const tag = `${process.pid}x${n}`;
  return { first: `jo.smith${tag}@gmail.com`, second: `jos.mith${tag}+again@googlemail.com` };
}

const calmMessage = (untilIso: string) =>
  `You're taking a break until ${formatLongDate(untilIso)}. You can't enter until then.`;

describe.skipIf(engineUnavailable())(`the exclusion register on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let competitionId: number;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    competitionId = await insertCompetition(db, { totalTickets: 500 });
  });

  const answerSkill = async (client: TestClient) => {
    const res = await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
    expect(res.body?.correct, res.text).toBe(true);
  };

  /** Registers on this e-mail and starts a five-year break; the client and when the break ends. */
  async function onBreak(email: string, overrides: Record<string, unknown> = {}) {
    const registered = await registeredClient(server.url, { email, ...overrides });
    const res = await registered.client.post('/api/account/self-exclusion', { period: '5y' });
    expect(res.status, res.text).toBe(200);
    return { ...registered, until: res.body.selfExcludedUntil as string };
  }

  const holdNumber = (client: TestClient, number: number) =>
    client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [number] });

  it('refuses a second account on the same mailbox at registration, with the calm message', async () => {
    const { first, second } = mailbox();
    const { until } = await onBreak(first);
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post('/api/register', registration({ email: second }));
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ code: 'self_excluded', message: calmMessage(until) });
    expect(await db('users').where({ email: second })).toHaveLength(0);
  });

  it('a second account made before the break cannot hold or pay, and is told at sign-in', async () => {
    const { first, second } = mailbox();
    const other = await registeredClient(server.url, { email: second, marketingEmails: true });
    await answerSkill(other.client);
    // Marketing goes only to a confirmed address.
    await db('users').where({ id: other.user.id }).update({ emailVerifiedAt: Date.now() });
    expect(await mayReceiveMarketing(db, other.user.id)).toBe(true);
    const { until } = await onBreak(first);
    expect(await mayReceiveMarketing(db, other.user.id)).toBe(false);

    // Its session from before the break.
    const held = await holdNumber(other.client, 11);
    expect(held.status, held.text).toBe(403);
    expect(held.body).toMatchObject({ code: 'self_excluded', message: calmMessage(until) });

    // Signing in again: the account shows the break and the notice says why.
    const again = new TestClient(server.url);
    await again.fetchCsrfToken();
    const login = await again.post('/api/login', {
      username: other.body.username,
      password: other.body.password,
    });
    expect(login.status, login.text).toBe(200);
    expect(login.body.selfExcludedUntil).toBe(until);
    await again.fetchCsrfToken();
    expect((await again.get('/api/account/self-exclusion')).body).toEqual({ selfExcludedUntil: until });
    await answerSkill(again);
    const refused = await holdNumber(again, 12);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.code).toBe('self_excluded');
    const checkout = await again.post('/api/create-payment-intent', {});
    expect(checkout.status, checkout.text).toBe(403);
    expect(await db('tickets').where({ competitionId, userId: other.user.id })).toHaveLength(0);
  });

  it('deleting the account keeps the break: the same e-mail and username cannot register again', async () => {
    const { first } = mailbox();
    const { client, body, user, until } = await onBreak(first);
    const deleted = await client.request('DELETE', '/api/account', { password: body.password });
    expect(deleted.status, deleted.text).toBe(200);
    // The account's personal data went; the register keeps only keyed hashes and the end.
    expect(await db('users').where({ id: user.id }).first()).toMatchObject({
      email: `deleted-${user.id}@deleted.invalid`,
      mailboxKey: null,
    });
    const rows = await db('exclusionRegister').select('*');
    expect(JSON.stringify(rows)).not.toContain('smith');

    const back = new TestClient(server.url);
    await back.fetchCsrfToken();
    const res = await back.post('/api/register', registration({ email: first, username: body.username }));
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ code: 'self_excluded', message: calmMessage(until) });
  });

  it('a new address confirmed during a break joins the register: deleting and returning on it is refused', async () => {
    const { first } = mailbox();
    const fresh = mailbox().first;
    const { client, body, until } = await onBreak(first);
    const change = await client.post('/api/account/email', { email: fresh, password: body.password });
    expect(change.status, change.text).toBe(200);
    const mail = await waitForEmail(server.database.dataDir, fresh, '/verify-email?token=');
    const confirmed = await client.post('/api/verify-email', { token: linkToken(mail, '/verify-email') });
    expect(confirmed.status, confirmed.text).toBe(200);
    const deleted = await client.request('DELETE', '/api/account', { password: body.password });
    expect(deleted.status, deleted.text).toBe(200);

    const back = new TestClient(server.url);
    await back.fetchCsrfToken();
    const res = await back.post('/api/register', registration({ email: fresh }));
    expect(res.status, res.text).toBe(403);
    expect(res.body).toMatchObject({ code: 'self_excluded', message: calmMessage(until) });
  });

  it('refuses a postcard with the same mailbox and no account id', async () => {
    const { first, second } = mailbox();
    await onBreak(first);
    const admin = (await signedInAdmin(server.url)).client;
    const res = await admin.post(`/api/admin/competitions/${competitionId}/postal-entries`, {
      name: 'Jo Smith',
      email: second,
      address: '12 High Street\nTruro',
      postcode: 'TR1 2AB',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('self_excluded');
    expect(await db('postalEntries').where({ email: second })).toHaveLength(0);
  });

  it('refuses promo codes during a break, on the account and on a second one', async () => {
    const { first, second } = mailbox();
    const promoId = await insertPromo(db, { targetUserType: 'all', autoApply: false });
    const code = `BREAK${process.pid}${n}`;
    await db('promoConfigs').where({ id: promoId }).update({ code });
    const other = await registeredClient(server.url, { email: second });
    const { client, until } = await onBreak(first);
    for (const c of [client, other.client]) {
      const res = await c.post('/api/account/promo-code', { code });
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ code: 'self_excluded', message: calmMessage(until) });
    }
    expect(await db('creditTransactions').where({ promoConfigId: promoId })).toHaveLength(0);
  });

  it('counts a new-customers-only code per mailbox: a second account cannot use it again', async () => {
    const { first, second } = mailbox();
    const promoId = await insertPromo(db, { targetUserType: 'new_user', autoApply: false });
    const code = `NEW${process.pid}${n}`;
    await db('promoConfigs').where({ id: promoId }).update({ code });
    const one = await registeredClient(server.url, { email: first });
    const used = await one.client.post('/api/account/promo-code', { code });
    expect(used.status, used.text).toBe(200);
    const two = await registeredClient(server.url, { email: second });
    const again = await two.client.post('/api/account/promo-code', { code });
    expect(again.status, again.text).toBe(409);
    expect(again.body.message).toBe('You have already used that promo code.');
    expect(await db('creditTransactions').where({ promoConfigId: promoId })).toHaveLength(1);
  });

  it('parallel redemptions from two accounts of one mailbox grant a new-customers-only code once', async () => {
    const { first, second } = mailbox();
    const promoId = await insertPromo(db, { targetUserType: 'new_user', autoApply: false });
    const code = `RACE${process.pid}${n}`;
    await db('promoConfigs').where({ id: promoId }).update({ code });
    const one = await registeredClient(server.url, { email: first });
    const two = await registeredClient(server.url, { email: second });
    const answers = await Promise.all(
      [one, two, one, two].map(({ client }) => client.post('/api/account/promo-code', { code })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    expect(await db('creditTransactions').where({ promoConfigId: promoId })).toHaveLength(1);
  });

  it('an account made before the register had keys is keyed at start-up and bound by a break', async () => {
    const { backfillMailboxKeys, mailboxKeyer } = await import(
      '../../../api/accounts/protection/exclusionRegister'
    );
    const { first, second } = mailbox();
    const older = await registeredClient(server.url, { email: second });
    await answerSkill(older.client);
    await db('users').where({ id: older.user.id }).update({ mailboxKey: null });
    const keyOf = mailboxKeyer(server.deps.config.exclusionKey);
    expect(await backfillMailboxKeys(db, keyOf, 2)).toBeGreaterThanOrEqual(1);
    expect((await db('users').where({ id: older.user.id }).first()).mailboxKey).toBe(keyOf(first));
    await onBreak(first);
    const held = await holdNumber(older.client, 21);
    expect(held.status, held.text).toBe(403);
  });

  it('purges a register entry once its break has ended, and then the mailbox may register', async () => {
    const { first, second } = mailbox();
    const { purgeEndedExclusions } = await import('../../../api/accounts/protection/exclusionRegister');
    const { until } = await onBreak(first);
    const count = async () => (await db('exclusionRegister').where({ endsAt: Date.parse(until) })).length;
    expect(await count()).toBe(1);
    await purgeEndedExclusions(db, Date.parse(until) - 1);
    expect(await count()).toBe(1);
    await purgeEndedExclusions(db, Date.parse(until));
    expect(await count()).toBe(0);
    // The account's own break ended too by then; the register no longer refuses the mailbox.
    await db('users')
      .where({ email: first })
      .update({ selfExcludedUntil: Date.now() - 1 });
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post('/api/register', registration({ email: second }));
    expect(res.status, res.text).toBe(201);
  });
});
