import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../api/platform/config';
import { registeredClient } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// The shipped defaults: 5 guesses per name and address, 20 failures per address.
const LIMITS = (({ perUsernameAddress, perAddress }) => ({ account: perUsernameAddress, ip: perAddress }))(
  loadConfig({}).loginLimits,
);

describe.skipIf(engineUnavailable())(`login, logout and sessions on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function loginAs(username: string, password: string, client = new TestClient(server.url)) {
    await client.fetchCsrfToken();
    const res = await client.post('/api/login', { username, password });
    return { client, res };
  }

  it('signs in with the username or the email address', async () => {
    const { body } = await registeredClient(server.url);
    const byName = await loginAs(body.username, body.password);
    expect(byName.res.status).toBe(200);
    expect(byName.res.body.username).toBe(body.username);
    const byEmail = await loginAs(body.email.toUpperCase(), body.password);
    expect(byEmail.res.status).toBe(200);
    expect((await byEmail.client.get('/api/user')).body.email).toBe(body.email);
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const { body } = await registeredClient(server.url);
    const wrong = await loginAs(body.username, 'not-the-password');
    const unknown = await loginAs('nobody-by-this-name', 'whatever1');
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.body).toEqual({ message: 'Invalid username or password', code: 'unauthenticated' });
    expect(unknown.res.body).toEqual(wrong.res.body);
  });

  it('validates the login body with the spec messages', async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    expect((await client.post('/api/login', { password: 'x' })).body.message).toBe('Username is required');
    expect((await client.post('/api/login', { username: 'someone' })).body.message).toBe(
      'Password is required',
    );
  });

  it('answers 401 for GET /api/user when signed out', async () => {
    const res = await new TestClient(server.url).get('/api/user');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('makes a pre-login cookie worthless after login, and renews the CSRF token', async () => {
    const { body } = await registeredClient(server.url);
    const client = new TestClient(server.url);
    const oldToken = await client.fetchCsrfToken();
    const preLoginCookie = client.cookieHeader;
    expect(
      (await client.post('/api/login', { username: body.username, password: body.password })).status,
    ).toBe(200);
    expect(client.cookieHeader).not.toBe(preLoginCookie);
    // The old cookie no longer identifies anyone...
    const replay = await fetch(`${server.url}/api/user`, { headers: { Cookie: preLoginCookie } });
    expect(replay.status).toBe(401);
    // ...and the old token does not pass CSRF on the new session.
    const stale = await client.post('/api/logout', undefined, { 'X-CSRF-Token': oldToken });
    expect(stale.status).toBe(403);
    const fresh = await client.fetchCsrfToken();
    expect(fresh).not.toBe(oldToken);
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('makes the cookie worthless after logout', async () => {
    const { client } = await registeredClient(server.url);
    const signedInCookie = client.cookieHeader;
    expect((await client.post('/api/logout')).status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(401);
    const replay = await fetch(`${server.url}/api/user`, { headers: { Cookie: signedInCookie } });
    expect(replay.status).toBe(401);
  });

  it('refuses login with a CSRF token from another session', async () => {
    const { body } = await registeredClient(server.url);
    const other = new TestClient(server.url);
    const foreignToken = await other.fetchCsrfToken();
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post(
      '/api/login',
      { username: body.username, password: body.password },
      {
        'X-CSRF-Token': foreignToken,
      },
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('csrf_invalid');
  });

  it('updates the phone number with the profile rules, only for the signed-in user', async () => {
    const anonymous = new TestClient(server.url);
    await anonymous.fetchCsrfToken();
    expect(
      (await anonymous.request('PUT', '/api/user/phone-number', { phoneNumber: '01392 123456' })).status,
    ).toBe(401);
    const { client, user } = await registeredClient(server.url);
    const bad = await client.request('PUT', '/api/user/phone-number', { phoneNumber: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Phone number is required');
    expect(
      (await client.request('PUT', '/api/user/phone-number', { phoneNumber: '01392 12' })).body.message,
    ).toBe('Phone number must be at least 10 digits');
    expect(
      (await client.request('PUT', '/api/user/phone-number', { phoneNumber: 'call me' })).body.message,
    ).toBe('Please enter a valid phone number');
    const ok = await client.request('PUT', '/api/user/phone-number', { phoneNumber: '(01392) 123-456' });
    expect(ok.status).toBe(200);
    expect(ok.body.phoneNumber).toBe('(01392) 123-456');
    expect((await server.database.db('users').where({ id: user.id }).first()).phoneNumber).toBe(
      '(01392) 123-456',
    );
  });

  it('refuses credit calls when signed out', async () => {
    const client = new TestClient(server.url);
    expect((await client.get('/api/user/credit')).status).toBe(401);
    expect((await client.get('/api/user/credit/transactions')).status).toBe(401);
  });

  it('moves sockets into the user room at login and out of every private room at logout', async () => {
    const { body } = await registeredClient(server.url);
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const guestSocket = io(server.url, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { Cookie: client.cookieHeader, Origin: server.url },
    });
    await new Promise<void>((resolve) => guestSocket.once('connect', () => resolve()));
    const ended = new Promise<void>((resolve) => guestSocket.once('session:ended', () => resolve()));
    const disconnected = new Promise<string>((resolve) => guestSocket.once('disconnect', resolve));

    const login = await client.post('/api/login', { username: body.username, password: body.password });
    await ended;
    expect(await disconnected).toBe('io server disconnect');

    // Reconnecting with the new cookie lands in the user's room.
    const userSocket = io(server.url, {
      transports: ['websocket'],
      forceNew: true,
      extraHeaders: { Cookie: client.cookieHeader, Origin: server.url },
    });
    await new Promise<void>((resolve) => userSocket.once('connect', () => resolve()));
    expect(await server.io.in(`user:${login.body.id}`).fetchSockets()).toHaveLength(1);

    await client.fetchCsrfToken();
    const gone = new Promise<string>((resolve) => userSocket.once('disconnect', resolve));
    expect((await client.post('/api/logout')).status).toBe(200);
    expect(await gone).toBe('io server disconnect');
    expect(await server.io.in(`user:${login.body.id}`).fetchSockets()).toHaveLength(0);
    guestSocket.disconnect();
    userSocket.disconnect();
  });
});

describe.skipIf(engineUnavailable())(`login throttling on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(`blocks an account after ${LIMITS.account} failures with 429 and a retry time, even for the right password`, async () => {
    const { body } = await registeredClient(server.url);
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    for (let i = 0; i < LIMITS.account; i++) {
      expect(
        (await client.post('/api/login', { username: body.username, password: 'wrong-one' })).status,
      ).toBe(401);
    }
    const blocked = await client.post('/api/login', { username: body.username, password: body.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(blocked.body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
  });
});

describe.skipIf(engineUnavailable())(`login throttling per address on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('blocks a client address after too many failures, and a forged X-Forwarded-For does not help', async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.ip + 1; i++) {
      const res = await client.post(
        '/api/login',
        { username: `stranger${i}`, password: 'guessing' },
        { 'X-Forwarded-For': `203.0.113.${i}` },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, LIMITS.ip)).toEqual(Array(LIMITS.ip).fill(401));
    expect(statuses[LIMITS.ip]).toBe(429);
  });
});
