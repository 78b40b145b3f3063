import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { undoToken } from '../../../api/accounts/security/twoFactorUndo';
import { WRONG_PASSWORD } from '../../../api/accounts/twoFactor';
import { NOT_ME_LINK_INVALID } from '../../../contract/account';
import { registeredClient, waitForEmail } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 35 §5: whoever holds only the session cookie must not be able to turn two-factor sign-in
// on and keep the account (docs/security.md#two-factor-sign-in).

const codeFor = (secret: string) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() });
const NOT_ME_LINK = /\/two-factor-not-me\?token=([A-Za-z0-9._-]+)/;

describe.skipIf(engineUnavailable())(`turning two-factor sign-in on, safely, on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer((s) => {
    server = s;
  });

  const signIn = async (username: string, password: string) => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post('/api/login', { username, password });
    await client.fetchCsrfToken();
    return { client, res };
  };
  const twoFactorOn = async (userId: number) =>
    Boolean((await server.database.db('twoFactor').where({ userId }).first())?.enabledAt);

  it('asks for the current password, with the disable flow’s error, and stays off without it', async () => {
    const { client, user } = await registeredClient(server.url);
    const setup = await client.post('/api/account/2fa/setup', {});
    const code = codeFor(setup.body.secret);
    const missing = await client.post('/api/account/2fa/enable', { code });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Password is required');
    const wrong = await client.post('/api/account/2fa/enable', { password: 'not-my-password', code });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(WRONG_PASSWORD);
    expect(await twoFactorOn(user.id)).toBe(false);
    expect(await server.database.db('twoFactorRecoveryCodes').where({ userId: user.id })).toEqual([]);
    const right = await client.post('/api/account/2fa/enable', { password: 'secret123', code });
    expect(right.status, right.text).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(true);
  });

  it('ends every other session when it is turned on, and tells the address with a link', async () => {
    const { client, body, user } = await registeredClient(server.url);
    const { client: other } = await signIn(body.username, body.password);
    expect((await other.get('/api/user')).status).toBe(200);
    const setup = await client.post('/api/account/2fa/setup', {});
    const on = await client.post('/api/account/2fa/enable', {
      password: body.password,
      code: codeFor(setup.body.secret),
    });
    expect(on.status, on.text).toBe(200);
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await other.get('/api/user')).status).toBe(401);
    const mail = await waitForEmail(server.database.dataDir, body.email, 'Two-factor sign-in was turned on');
    expect(mail).toContain("This wasn't me");
    expect(mail).toMatch(NOT_ME_LINK);
    expect(await twoFactorOn(user.id)).toBe(true);
  });

  it('lets the owner take the account back with the e-mailed link: a new password, 2FA off, every session out; once', async () => {
    const { client: thief, body, user } = await registeredClient(server.url);
    const setup = await thief.post('/api/account/2fa/setup', {});
    await thief.post('/api/account/2fa/enable', {
      password: body.password,
      code: codeFor(setup.body.secret),
    });
    const mail = await waitForEmail(server.database.dataDir, body.email, 'Two-factor sign-in was turned on');
    const token = NOT_ME_LINK.exec(mail)![1]!;

    const owner = new TestClient(server.url);
    await owner.fetchCsrfToken();
    // A changed signature, or a link for another moment, acts on nothing.
    const forged = token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const bad of [forged, `${token}x`, 'v1.1.2.3.abc']) {
      const res = await owner.post('/api/account/2fa/not-me', { token: bad, password: 'taken-back-1' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(NOT_ME_LINK_INVALID);
    }
    expect(await twoFactorOn(user.id)).toBe(true);

    const res = await owner.post('/api/account/2fa/not-me', { token, password: 'taken-back-1' });
    expect(res.status, res.text).toBe(200);
    expect(await twoFactorOn(user.id)).toBe(false);
    expect(await server.database.db('twoFactorRecoveryCodes').where({ userId: user.id })).toEqual([]);
    expect((await thief.get('/api/user')).status).toBe(401);
    expect((await signIn(body.username, body.password)).res.status).toBe(401);
    const back = await signIn(body.username, 'taken-back-1');
    expect(back.res.status, back.res.text).toBe(200);
    expect(back.res.body.username).toBe(body.username); // no code asked for
    // Used once: the same link again changes nothing.
    const again = await owner.post('/api/account/2fa/not-me', { token, password: 'thief-again-1' });
    expect(again.status).toBe(400);
    expect((await signIn(body.username, 'taken-back-1')).res.status).toBe(200);
  });

  it('refuses an expired link', async () => {
    const { client, body, user } = await registeredClient(server.url);
    const setup = await client.post('/api/account/2fa/setup', {});
    await client.post('/api/account/2fa/enable', {
      password: body.password,
      code: codeFor(setup.body.secret),
    });
    const { enabledAt } = await server.database.db('twoFactor').where({ userId: user.id }).first();
    const expired = undoToken(server.deps.config, user.id, Number(enabledAt), Date.now() - 1);
    const res = await client.post('/api/account/2fa/not-me', { token: expired, password: 'taken-back-1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(NOT_ME_LINK_INVALID);
    expect(await twoFactorOn(user.id)).toBe(true);
  });
});
