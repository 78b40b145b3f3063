import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FORGOT_PASSWORD_SENT,
  PASSWORD_INCORRECT,
  RESET_LINK_INVALID,
  VERIFY_LINK_INVALID,
  WRONG_PASSWORD,
} from '../../../contract/account';
import {
  emailsTo,
  linkToken,
  registeredClient,
  registration,
  verifiedClient,
  waitForEmail,
} from '../../support/accounts';
import { customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition, insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

const RESET_LINK = '/reset-password?token=';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const VERIFY_LINK = '/verify-email?token=';

describe.skipIf(engineUnavailable())(
  `password reset, e-mail confirmation and account security on ${testEngine()}`,
  () => {
    let url: string;
    let dataDir: string;
    let db: Knex;
    useTestServer(
      async (server) => {
        url = server.url;
        dataDir = server.database.dataDir;
        db = server.database.db;
      },
      // The suite asks for many e-mails from 127.0.0.1; the per-address limit has its own test below.
      { env: { ACCOUNT_EMAILS_PER_ADDRESS: '1000' } },
    );
    beforeAll(async () => {
      await insertPromo(db, { name: 'New User Welcome Credit', creditAmountPence: 500 });
    });

    const signIn = async (username: string, password: string) => {
      const client = new TestClient(url);
      await client.fetchCsrfToken();
      const res = await client.post('/api/login', { username, password });
      if (res.status === 200) await client.fetchCsrfToken();
      return { client, res };
    };
    const guest = async () => {
      const client = new TestClient(url);
      await client.fetchCsrfToken();
      return client;
    };
    const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

    describe('e-mail confirmation and the welcome credit', () => {
      it('sends a link at registration and pays the welcome credit only when it is opened, once', async () => {
        const { client, body, user } = await registeredClient(url);
        expect(user).toMatchObject({ emailVerified: false, siteCredit: 0 });
        expect(await db('creditTransactions').where({ userId: user.id })).toHaveLength(0);

        const mail = await waitForEmail(dataDir, body.email, VERIFY_LINK);
        expect(mail).toMatch(/^Subject: Please confirm your e-mail address/m);
        const token = linkToken(mail, '/verify-email');
        const anyone = await guest(); // the link works on any device, signed in or not
        const res = await anyone.post('/api/verify-email', { token });
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          message: 'Thank you: your e-mail address is confirmed.',
          email: body.email,
          welcomeCredit: 5,
        });
        expect((await client.get('/api/user')).body).toMatchObject({ emailVerified: true, siteCredit: 5 });
        const ledger = await db('creditTransactions').where({ userId: user.id });
        expect(ledger).toMatchObject([
          { type: 'credit', amountPence: 500, description: 'New User Welcome Credit' },
        ]);
        await waitForEmail(dataDir, body.email, 'We have added £5.00 of site credit to your account');

        const again = await anyone.post('/api/verify-email', { token });
        expect(again.status).toBe(400);
        expect(again.body.message).toBe(VERIFY_LINK_INVALID);
        expect(await db('creditTransactions').where({ userId: user.id })).toHaveLength(1);
      });

      it('stores only the SHA-256 of a token, and refuses unknown and expired links', async () => {
        const { body, user } = await registeredClient(url);
        const token = linkToken(await waitForEmail(dataDir, body.email, VERIFY_LINK), '/verify-email');
        expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
        const rows = await db('accountTokens').where({ userId: user.id });
        expect(rows).toHaveLength(1);
        expect(rows[0].tokenHash).toBe(sha256(token));
        expect(JSON.stringify(rows)).not.toContain(token);

        const anyone = await guest();
        for (const bad of [`${token.slice(0, -2)}xx`, 'nonsense', '']) {
          const res = await anyone.post('/api/verify-email', { token: bad });
          expect(res.status).toBe(400);
          expect(res.body.message).toBe(VERIFY_LINK_INVALID);
        }
        await db('accountTokens')
          .where({ userId: user.id })
          .update({ expiresAt: Date.now() - 1 });
        const expired = await anyone.post('/api/verify-email', { token });
        expect(expired.status).toBe(400);
        expect(expired.body.message).toBe(VERIFY_LINK_INVALID);
        expect((await db('users').where({ id: user.id }).first()).emailVerifiedAt).toBeNull();
      });

      it('pays the welcome credit once per mailbox: case, dots and +tags on Gmail are the same mailbox', async () => {
        const first = await verifiedClient(url, dataDir, {
          email: `Pat.Penhallow${process.pid}+prizes@gmail.com`,
        });
        expect(first.user.siteCredit).toBe(5);
        // Same mailbox, spelt differently, on a second account.
        const second = await registeredClient(url, { email: `patpenhallow${process.pid}@googlemail.com` });
        const token = linkToken(await waitForEmail(dataDir, second.body.email, VERIFY_LINK), '/verify-email');
        const res = await second.client.post('/api/verify-email', { token });
        expect(res.status).toBe(200);
        expect(res.body.welcomeCredit).toBe(0);
        expect((await second.client.get('/api/user')).body).toMatchObject({
          emailVerified: true,
          siteCredit: 0,
        });
        // Elsewhere a +tag is part of the address: another mailbox.
        const other = await verifiedClient(url, dataDir, { email: `pat+${process.pid}@example.org` });
        expect(other.user.siteCredit).toBe(5);
      });

      it('sends the link again, the earlier one stops working, and asking is limited', async () => {
        const { client, body } = await registeredClient(url);
        const old = linkToken(await waitForEmail(dataDir, body.email, VERIFY_LINK), '/verify-email');
        const resent = await client.post('/api/verify-email/resend');
        expect(resent.status).toBe(200);
        expect(resent.body.message).toBe(`We have sent a new confirmation link to ${body.email}.`);
        const fresh = linkToken(await waitForEmail(dataDir, body.email, VERIFY_LINK, 2), '/verify-email');
        expect(fresh).not.toBe(old);
        expect((await client.post('/api/verify-email', { token: old })).status).toBe(400);
        // Three per account an hour: two more, then refused.
        expect((await client.post('/api/verify-email/resend')).status).toBe(200);
        expect((await client.post('/api/verify-email/resend')).status).toBe(200);
        const limited = await client.post('/api/verify-email/resend');
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(limited.body.message).toMatch(
          /^Too many e-mails have been requested\. Please try again in \d+ minutes?\.$/,
        );
        expect(emailsTo(dataDir, body.email)).toHaveLength(4);
      });

      it('refuses a resend once confirmed, and to a visitor who is not signed in', async () => {
        const { client } = await verifiedClient(url, dataDir);
        const res = await client.post('/api/verify-email/resend');
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Your e-mail address is already confirmed.');
        expect((await (await guest()).post('/api/verify-email/resend')).status).toBe(401);
      });
    });

    describe('forgotten password', () => {
      it('answers 202 with the same body for a known and an unknown address, and mails only the account', async () => {
        const { body } = await registeredClient(url);
        const anyone = await guest();
        const known = await anyone.post('/api/password/forgot', { email: body.email.toUpperCase() });
        const unknown = await anyone.post('/api/password/forgot', {
          email: `nobody${process.pid}@example.co.uk`,
        });
        expect(known.status).toBe(202);
        expect(unknown.status).toBe(202);
        expect(known.body).toEqual({ message: FORGOT_PASSWORD_SENT });
        expect(unknown.text).toBe(known.text);
        const mail = await waitForEmail(dataDir, body.email, RESET_LINK);
        expect(mail).toMatch(/^Subject: Reset your .* password/m);
        expect(emailsTo(dataDir, `nobody${process.pid}@example.co.uk`)).toHaveLength(0);
        const bad = await anyone.post('/api/password/forgot', { email: 'not an address' });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toBe('Please enter a valid email address');
      });

      it('resets with the link: every session ends, the old password stops working, the link works once', async () => {
        const { client: first, body, user } = await registeredClient(url);
        const { client: second } = await signIn(body.username, body.password);
        const anyone = await guest();
        await anyone.post('/api/password/forgot', { email: body.email });
        const token = linkToken(await waitForEmail(dataDir, body.email, RESET_LINK), '/reset-password');

        const weak = await anyone.post('/api/password/reset', { token, password: 'abc' });
        expect(weak.status).toBe(400);
        expect(weak.body.message).toBe('Password must be at least 6 characters');

        const res = await anyone.post('/api/password/reset', { token, password: 'brand-new-secret' });
        expect(res.status, res.text).toBe(200);
        expect((await first.get('/api/user')).status).toBe(401);
        expect((await second.get('/api/user')).status).toBe(401);
        expect((await signIn(body.username, body.password)).res.status).toBe(401);
        expect((await signIn(body.username, 'brand-new-secret')).res.status).toBe(200);
        await waitForEmail(dataDir, body.email, 'The password of your account was changed');

        const reused = await anyone.post('/api/password/reset', { token, password: 'another-secret' });
        expect(reused.status).toBe(400);
        expect(reused.body).toMatchObject({ message: RESET_LINK_INVALID });
        expect(
          (await db('accountTokens').where({ userId: user.id, purpose: 'reset_password' }).first()).usedAt,
        ).not.toBeNull();
      });

      it('refuses an expired, unknown or superseded link and changes nothing', async () => {
        const { body, user } = await registeredClient(url);
        const anyone = await guest();
        await anyone.post('/api/password/forgot', { email: body.email });
        const first = linkToken(await waitForEmail(dataDir, body.email, RESET_LINK), '/reset-password');
        await anyone.post('/api/password/forgot', { email: body.email });
        const second = linkToken(await waitForEmail(dataDir, body.email, RESET_LINK, 2), '/reset-password');
        const before = (await db('users').where({ id: user.id }).first()).passwordHash;

        const superseded = await anyone.post('/api/password/reset', {
          token: first,
          password: 'new-secret-1',
        });
        expect(superseded.status).toBe(400);
        expect(superseded.body.message).toBe(RESET_LINK_INVALID);
        const unknown = await anyone.post('/api/password/reset', {
          token: 'x'.repeat(43),
          password: 'new-secret-1',
        });
        expect(unknown.body.message).toBe(RESET_LINK_INVALID);
        // Valid for one hour.
        await db('accountTokens')
          .where({ userId: user.id, purpose: 'reset_password' })
          .update({ expiresAt: Date.now() - 1 });
        const expired = await anyone.post('/api/password/reset', { token: second, password: 'new-secret-1' });
        expect(expired.status).toBe(400);
        expect(expired.body.message).toBe(RESET_LINK_INVALID);
        expect((await db('users').where({ id: user.id }).first()).passwordHash).toBe(before);
      });

      it('limits reset e-mails per mailbox, known or not, so the limit reveals nothing', async () => {
        const { body } = await registeredClient(url);
        const anyone = await guest();
        for (const email of [body.email, `ghost${process.pid}@example.co.uk`]) {
          for (let i = 0; i < 3; i++)
            expect((await anyone.post('/api/password/forgot', { email })).status).toBe(202);
          const limited = await anyone.post('/api/password/forgot', { email });
          expect(limited.status).toBe(429);
          expect(limited.body.code).toBe('rate_limited');
        }
        await waitForEmail(dataDir, body.email, RESET_LINK, 3);
      });
    });

    describe('changing the password and the e-mail address', () => {
      it('changes the password with the current one, ending every other session but this one', async () => {
        const { client, body } = await registeredClient(url);
        const { client: other } = await signIn(body.username, body.password);
        const wrong = await client.post('/api/account/password', {
          currentPassword: 'not-my-password',
          newPassword: 'changed-secret',
        });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toBe(WRONG_PASSWORD);
        expect((await other.get('/api/user')).status).toBe(200);

        const res = await client.post('/api/account/password', {
          currentPassword: body.password,
          newPassword: 'changed-secret',
        });
        expect(res.status, res.text).toBe(200);
        expect((await client.get('/api/user')).status).toBe(200);
        expect((await other.get('/api/user')).status).toBe(401);
        expect((await signIn(body.username, 'changed-secret')).res.status).toBe(200);
        await waitForEmail(dataDir, body.email, 'The password of your account was changed');
      });

      it('limits wrong current passwords like sign-in guesses', async () => {
        const { client, body } = await registeredClient(url);
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await client.post('/api/account/password', {
            currentPassword: 'guess-123',
            newPassword: 'x-secret',
          });
          statuses.push(res.status);
        }
        expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
        expect((await signIn(body.username, body.password)).res.status).toBe(200);
      });

      it('changes the e-mail only when the new address confirms it, and tells the old one', async () => {
        const { client, body, user } = await verifiedClient(url, dataDir);
        const newEmail = `moved${process.pid}x${user.id}@example.net`;
        const wrong = await client.post('/api/account/email', { email: newEmail, password: 'nope-nope' });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toBe(PASSWORD_INCORRECT);
        const taken = await registeredClient(url);
        const clash = await client.post('/api/account/email', {
          email: taken.body.email,
          password: body.password,
        });
        expect(clash.status).toBe(409);
        expect(clash.body.message).toBe('Another account already uses that e-mail address.');
        const same = await client.post('/api/account/email', { email: body.email, password: body.password });
        expect(same.body.message).toBe('That is already your e-mail address.');

        const res = await client.post('/api/account/email', { email: newEmail, password: body.password });
        expect(res.status, res.text).toBe(200);
        expect((await client.get('/api/user')).body.email).toBe(body.email);
        const notice = await waitForEmail(dataDir, body.email, newEmail);
        expect(notice).toMatch(/^Subject: The e-mail address of your .* account is changing/m);
        const token = linkToken(await waitForEmail(dataDir, newEmail, VERIFY_LINK), '/verify-email');
        const confirmed = await client.post('/api/verify-email', { token });
        expect(confirmed.status).toBe(200);
        expect(confirmed.body).toMatchObject({ email: newEmail, welcomeCredit: 0 });
        expect((await client.get('/api/user')).body).toMatchObject({
          email: newEmail,
          emailVerified: true,
          siteCredit: 5,
        });
        expect((await signIn(newEmail, body.password)).res.status).toBe(200);
      });
    });

    describe("the customer's sessions", () => {
      it('lists each session with its device, address and last seen, and signs out one or all others', async () => {
        const { client, body } = await registeredClient(url);
        const phone = new TestClient(url);
        await phone.fetchCsrfToken();
        await phone.post(
          '/api/login',
          { username: body.username, password: body.password },
          { 'User-Agent': ANDROID_CHROME },
        );
        await phone.fetchCsrfToken();
        const { client: laptop } = await signIn(body.username, body.password);

        const list = await client.get('/api/account/sessions');
        expect(list.status).toBe(200);
        expect(list.body).toHaveLength(3);
        expect(list.body[0].current).toBe(true);
        const phoneRow = list.body.find((s: { device: string }) => s.device === 'Chrome on Android');
        // Named, not the raw agent; no area without a trusted proxy's word (sessionLabels.test.ts).
        expect(phoneRow).toMatchObject({
          current: false,
          label: 'Chrome on Android',
          area: null,
          address: expect.stringMatching(/127\.0\.0\.1/),
        });
        expect(Date.parse(phoneRow.lastSeenAt)).toBeGreaterThan(Date.now() - 60_000);
        expect(phoneRow.id).toMatch(/^[0-9a-f]{32}$/);
        // The id is not the cookie's key.
        expect(phone.cookieHeader).not.toContain(phoneRow.id);

        expect((await client.request('DELETE', `/api/account/sessions/${phoneRow.id}`)).status).toBe(200);
        expect((await phone.get('/api/user')).status).toBe(401);
        expect((await laptop.get('/api/user')).status).toBe(200);
        expect((await client.request('DELETE', `/api/account/sessions/${phoneRow.id}`)).status).toBe(404);

        const others = await client.post('/api/account/sessions/revoke-others');
        expect(others.body).toMatchObject({ ended: 1, message: '1 other session has been signed out.' });
        expect((await laptop.get('/api/user')).status).toBe(401);
        expect((await client.get('/api/user')).status).toBe(200);
        expect((await client.get('/api/account/sessions')).body).toHaveLength(1);
      });

      it("cannot end someone else's session", async () => {
        const alice = await registeredClient(url);
        const bob = await registeredClient(url);
        const bobsId = (await bob.client.get('/api/account/sessions')).body[0].id;
        expect((await alice.client.request('DELETE', `/api/account/sessions/${bobsId}`)).status).toBe(404);
        expect((await bob.client.get('/api/user')).status).toBe(200);
        expect((await alice.client.request('DELETE', '/api/account/sessions/not-an-id')).status).toBe(400);
      });
    });

    describe('data export and account deletion', () => {
      it('downloads the profile, consent, orders, entries, credit and sessions as JSON', async () => {
        const competitionId = await insertCompetition(db);
        const { client, user } = await customer(url, competitionId);
        await hold(client, competitionId, [3, 4]);
        const order = await startCheckout(client);
        const res = await client.get('/api/account/export');
        expect(res.status).toBe(200);
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="my-data-${user.id}.json"`);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(Object.keys(res.body)).toEqual([
          'exportedAt',
          'profile',
          'consent',
          'orders',
          'entries',
          'creditTransactions',
          'referrals',
          'complaints',
          'postalEntries',
          'sessions',
        ]);
        expect(res.body.referrals).toEqual({ code: null, joinedWithALink: false, referred: 0, rewarded: 0 });
        expect(res.body.profile).toMatchObject({ id: user.id, email: user.email, emailVerified: false });
        expect(res.body.profile.passwordHash).toBeUndefined();
        expect(res.body.orders).toMatchObject([
          { id: order.orderId, status: 'pending', items: [{ numbers: [3, 4] }] },
        ]);
        expect(res.body.sessions).toMatchObject([{ current: true }]);
        expect((await (await guest()).get('/api/account/export')).status).toBe(401);
      });

      it('refuses deletion with a wrong password, and while a payment is in progress', async () => {
        const competitionId = await insertCompetition(db);
        const { client, user } = await customer(url, competitionId);
        const wrong = await client.request('DELETE', '/api/account', { password: 'not-it-at-all' });
        expect(wrong.status).toBe(400);
        expect(wrong.body.message).toBe(PASSWORD_INCORRECT);
        await hold(client, competitionId, [7]);
        await startCheckout(client);
        const paying = await client.request('DELETE', '/api/account', { password: 'secret123' });
        expect(paying.status).toBe(409);
        expect(paying.body.message).toBe(
          'A payment of yours is in progress. Please wait for it to finish, then delete your account.',
        );
        expect((await db('users').where({ id: user.id }).first()).deletedAt).toBeNull();
      });

      it('erases the personal data, keeps orders and the ledger, releases holds and signs out', async () => {
        const competitionId = await insertCompetition(db);
        const registered = await verifiedClient(url, dataDir);
        const { client, body, user } = registered;
        await client.post(`/api/competitions/${competitionId}/skill-answer`, { answer: '365' });
        await hold(client, competitionId, [11, 12]);
        const { client: elsewhere } = await signIn(body.username, body.password);

        const res = await client.request('DELETE', '/api/account', { password: body.password });
        expect(res.status, res.text).toBe(200);
        const row = await db('users').where({ id: user.id }).first();
        expect(row).toMatchObject({
          username: `deleted-${user.id}`,
          email: `deleted-${user.id}@deleted.invalid`,
          firstName: null,
          lastName: null,
          phoneNumber: '',
        });
        expect(row.deletedAt).not.toBeNull();
        expect(await db('creditTransactions').where({ userId: user.id })).toHaveLength(1);
        expect(await db('tickets').where({ competitionId }).whereIn('number', [11, 12])).toHaveLength(0);
        expect(await db('cartItems').where({ userId: user.id })).toHaveLength(0);
        expect((await client.get('/api/user')).status).toBe(401);
        expect((await elsewhere.get('/api/user')).status).toBe(401);
        expect((await signIn(body.username, body.password)).res.status).toBe(401);
        const audit = await db('auditLog').where({ entityType: 'user', entityId: String(user.id) });
        expect(audit.map((a: { action: string }) => a.action)).toEqual(['user.self_delete']);
        // The same person registering again with the same mailbox gets no second welcome credit.
        const again = await verifiedClient(url, dataDir, registration({ email: body.email }));
        expect(again.user.siteCredit).toBe(0);
      });
    });
  },
);

describe.skipIf(engineUnavailable())(`account e-mail limit per address on ${testEngine()}`, () => {
  let url: string;
  useTestServer(
    (server) => {
      url = server.url;
    },
    { env: { ACCOUNT_EMAILS_PER_ADDRESS: '2' } },
  );

  it('limits reset e-mails from one address across mailboxes (ACCOUNT_EMAILS_PER_ADDRESS)', async () => {
    const client = new TestClient(url);
    await client.fetchCsrfToken();
    const statuses = [];
    for (const who of ['a', 'b', 'c']) {
      statuses.push(
        (await client.post('/api/password/forgot', { email: `${who}${process.pid}@example.co.uk` })).status,
      );
    }
    expect(statuses).toEqual([202, 202, 429]);
  });
});
