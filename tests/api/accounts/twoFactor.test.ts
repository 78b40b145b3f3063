import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { CODE_ATTEMPTS, WRONG_CODE } from '../../../api/accounts/twoFactor';
import { ADMIN_TWO_FACTOR_MESSAGE } from '../../../api/platform/adminTwoFactor';
import { registeredClient } from '../../support/accounts';
import { signedInAdmin } from '../../support/admin';
import { TestClient } from '../../support/httpClient';
import { connectSocket } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

/** The code an authenticator app shows for `secret`, `stepsAhead` 30-second steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + stepsAhead * 30_000 });

/** Sets up and turns on two-factor sign-in for the client's account; its secret and recovery codes. */
async function enableTwoFactor(client: TestClient, password = 'secret123') {
  const setup = await client.post('/api/account/2fa/setup', {});
  expect(setup.status, setup.text).toBe(200);
  const enabled = await client.post('/api/account/2fa/enable', {
    password,
    code: codeFor(setup.body.secret),
  });
  expect(enabled.status, enabled.text).toBe(200);
  return { secret: setup.body.secret as string, recoveryCodes: enabled.body.recoveryCodes as string[] };
}

/** A new browser that has given the right password: it now owes the code. */
async function passwordStep(baseUrl: string, username: string, password: string) {
  const client = new TestClient(baseUrl);
  await client.fetchCsrfToken();
  const res = await client.post('/api/login', { username, password });
  return { client, res };
}

describe.skipIf(engineUnavailable())(`two-factor sign-in on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer((s) => {
    server = s;
  });

  it('sets up with a QR code, turns on with a code, and stores only the encrypted secret and hashed codes', async () => {
    const { client, user } = await registeredClient(server.url);
    expect((await client.get('/api/user')).body.twoFactorEnabled).toBe(false);
    const setup = await client.post('/api/account/2fa/setup', {});
    expect(setup.status).toBe(200);
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Not in force until confirmed with a code.
    expect((await client.get('/api/user')).body.twoFactorEnabled).toBe(false);

    const wrong = await client.post('/api/account/2fa/enable', { password: 'secret123', code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(WRONG_CODE);
    const enabled = await client.post('/api/account/2fa/enable', {
      password: 'secret123',
      code: codeFor(setup.body.secret),
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    expect((await client.get('/api/user')).body.twoFactorEnabled).toBe(true);
    expect((await client.get('/api/account/2fa')).body).toEqual({ recoveryCodesLeft: 10 });

    const row = await server.database.db('twoFactor').where({ userId: user.id }).first();
    expect(row.secretEncrypted).not.toContain(setup.body.secret);
    const hashes = await server.database
      .db('twoFactorRecoveryCodes')
      .where({ userId: user.id })
      .pluck('codeHash');
    expect(hashes).toHaveLength(10);
    for (const code of enabled.body.recoveryCodes) expect(hashes).not.toContain(code);

    // Setting up again while it is on is refused and changes nothing.
    const again = await client.post('/api/account/2fa/setup', {});
    expect(again.status).toBe(409);
    expect((await server.database.db('twoFactor').where({ userId: user.id }).first()).secretEncrypted).toBe(
      row.secretEncrypted,
    );
  });

  it('asks for the code after the password and grants nothing until it is right; a code works once', async () => {
    const { client: first, body } = await registeredClient(server.url);
    const { secret } = await enableTwoFactor(first);

    const { client, res } = await passwordStep(server.url, body.username, body.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ twoFactorRequired: true });
    expect((await client.get('/api/user')).status).toBe(401);
    expect((await client.get('/api/user/credit')).status).toBe(401);

    const wrong = await client.post('/api/login/2fa', { code: '123456' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(WRONG_CODE);
    expect((await client.get('/api/user')).status).toBe(401);

    // The next step's code: the one used to turn it on was for this step, and is spent.
    const code = codeFor(secret, 1);
    const ok = await client.post('/api/login/2fa', { code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.username).toBe(body.username);
    expect(ok.body.twoFactorEnabled).toBe(true);
    await client.fetchCsrfToken();
    expect((await client.get('/api/user')).body.username).toBe(body.username);

    // Replaying the same code (a shoulder-surfer, a phished code) in another browser is refused.
    const other = await passwordStep(server.url, body.username, body.password);
    const replay = await other.client.post('/api/login/2fa', { code });
    expect(replay.status).toBe(400);
    expect((await other.client.get('/api/user')).status).toBe(401);
  });

  it('takes a recovery code once, in place of the app', async () => {
    const { client: first, body } = await registeredClient(server.url);
    const { recoveryCodes } = await enableTwoFactor(first);
    const recovery = recoveryCodes[3]!;

    const a = await passwordStep(server.url, body.username, body.password);
    // Typed in lower case without the hyphen, as people do.
    const ok = await a.client.post('/api/login/2fa', { code: recovery.replace('-', '').toLowerCase() });
    expect(ok.status, ok.text).toBe(200);

    const b = await passwordStep(server.url, body.username, body.password);
    const reused = await b.client.post('/api/login/2fa', { code: recovery });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe(WRONG_CODE);
    expect((await b.client.get('/api/user')).status).toBe(401);
    expect((await first.get('/api/account/2fa')).body).toEqual({ recoveryCodesLeft: 9 });
  });

  it('refuses the code step without a fresh password step', async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post('/api/login/2fa', { code: '123456' });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/enter your username and password again/);
    expect((await client.post('/api/login/2fa', {})).body.message).toBe(
      'Enter the code from your authenticator app',
    );
  });

  it(`limits code guesses to ${CODE_ATTEMPTS} per account, then refuses even the right code`, async () => {
    const { client: first, body } = await registeredClient(server.url);
    const { secret } = await enableTwoFactor(first);
    const { client } = await passwordStep(server.url, body.username, body.password);
    // Guessed in parallel: the count is taken before each check, so none slips past it.
    const guesses = await Promise.all(
      Array.from({ length: CODE_ATTEMPTS + 3 }, (_, i) =>
        client.post('/api/login/2fa', { code: String(100000 + i) }),
      ),
    );
    const statuses = guesses.map((g) => g.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(CODE_ATTEMPTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    const right = await client.post('/api/login/2fa', { code: codeFor(secret, 1) });
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(
      /^Too many attempts at the code\. Please try again in \d+ minutes?\.$/,
    );
    expect(right.headers.get('retry-after')).toBeTruthy();
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('turns off only with the password and a code', async () => {
    const { client, body } = await registeredClient(server.url);
    const { recoveryCodes } = await enableTwoFactor(client);
    const badPassword = await client.post('/api/account/2fa/disable', {
      password: 'not-my-password',
      code: recoveryCodes[0],
    });
    expect(badPassword.status).toBe(400);
    expect(badPassword.body.message).toBe('Your password is not correct.');
    const badCode = await client.post('/api/account/2fa/disable', {
      password: body.password,
      code: '000000',
    });
    expect(badCode.status).toBe(400);
    expect((await client.get('/api/user')).body.twoFactorEnabled).toBe(true);

    const off = await client.post('/api/account/2fa/disable', {
      password: body.password,
      code: recoveryCodes[0],
    });
    expect(off.status, off.text).toBe(200);
    const me = await client.get('/api/user');
    expect(me.body.twoFactorEnabled).toBe(false);
    const user = me.body.id;
    expect(await server.database.db('twoFactor').where({ userId: user })).toEqual([]);
    expect(await server.database.db('twoFactorRecoveryCodes').where({ userId: user })).toEqual([]);
    const { res } = await passwordStep(server.url, body.username, body.password);
    expect(res.body.username).toBe(body.username);
  });
});

describe.skipIf(engineUnavailable())(`ADMIN_REQUIRE_2FA on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer(
    (s) => {
      server = s;
    },
    { env: { ADMIN_REQUIRE_2FA: 'true' } },
  );

  /** A second admin (not the demo one): a customer promoted by the demo admin. */
  async function newAdmin() {
    const { body, user } = await registeredClient(server.url);
    const { client: demo } = await signedInAdmin(server.url);
    const promoted = await demo.request('PATCH', `/api/admin/users/${user.id}/role`, { role: 'admin' });
    expect(promoted.status, promoted.text).toBe(200);
    // A role change ends the account's sessions: sign in again.
    const again = await passwordStep(server.url, body.username, body.password);
    expect(again.res.status).toBe(200);
    await again.client.fetchCsrfToken();
    return { client: again.client, id: user.id as number };
  }

  it('keeps an admin without two-factor sign-in out of every admin route and the admins room until it is on', async () => {
    const { client, id } = await newAdmin();
    const me = await client.get('/api/user');
    expect(me.body).toMatchObject({ role: 'admin', twoFactorEnabled: false, twoFactorSetupRequired: true });
    // One or more routes from every file that registers admin routes.
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/dashboard'],
      ['GET', '/api/admin/users'],
      ['PATCH', `/api/admin/users/${id}/role`, { role: 'user' }],
      ['GET', '/api/admin/orders'],
      ['GET', '/api/admin/tickets/lookup?competitionId=1&ticketNumber=1'],
      ['GET', '/api/admin/competitions'],
      ['GET', '/api/admin/winners'],
      ['GET', '/api/admin/settings/ticket-cap'],
      ['PUT', '/api/admin/hero-image', { imageUrl: '/images/x.png' }],
      ['POST', '/api/admin/upload-image', {}],
      ['GET', '/api/admin/promos'],
      ['POST', '/api/admin/promos', { name: 'Sneaky', creditAmount: 5 }],
      ['POST', '/api/admin/reset-all-credits', {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await client.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, path).toEqual({
        message: ADMIN_TWO_FACTOR_MESSAGE,
        code: 'two_factor_setup_required',
      });
    }
    expect(await server.database.db('promoConfigs').where({ name: 'Sneaky' })).toEqual([]);
    expect((await server.database.db('users').where({ id }).first()).role).toBe('admin');

    const socket = await connectSocket(server.url, client.cookieHeader);
    try {
      const [found] = await server.io.in(socket.id!).fetchSockets();
      expect([...found!.rooms]).toContain(`user:${id}`);
      expect([...found!.rooms]).not.toContain('admins');
    } finally {
      socket.disconnect();
    }

    await enableTwoFactor(client);
    expect((await client.get('/api/user')).body.twoFactorSetupRequired).toBe(false);
    expect((await client.get('/api/admin/users')).status).toBe(200);
    const after = await connectSocket(server.url, client.cookieHeader);
    try {
      const [found] = await server.io.in(after.id!).fetchSockets();
      expect([...found!.rooms]).toContain('admins');
    } finally {
      after.disconnect();
    }
  });

  it('leaves customers alone and exempts the demo admin outside production', async () => {
    const { client } = await registeredClient(server.url);
    expect((await client.get('/api/user')).body.twoFactorSetupRequired).toBe(false);
    const { client: demo } = await signedInAdmin(server.url);
    expect((await demo.get('/api/user')).body.twoFactorSetupRequired).toBe(false);
    expect((await demo.get('/api/admin/users')).status).toBe(200);
  });
});
