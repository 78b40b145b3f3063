import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredSessions } from '../../../api/platform/sessions';
import { TestClient } from '../../support/httpClient';
import { TEST_PROMOTER } from '../../support/promoter';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

describe.skipIf(engineUnavailable())(`system routes on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reports health with the engine in use', async () => {
    const res = await new TestClient(server.url).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, db: testEngine() });
  });

  it('serves the public site configuration', async () => {
    const res = await new TestClient(server.url).get('/api/site-config');
    expect(res.body).toEqual({
      siteName: 'Westcountry Prizes',
      supportEmail: 'support@westcountryprizes.co.uk',
      // The promoter the test server starts with (tests/support/promoter.ts); no charities yet.
      promoter: {
        name: TEST_PROMOTER.operatorName,
        companyNumber: TEST_PROMOTER.companyNumber,
        address: TEST_PROMOTER.operatorAddress,
        phone: TEST_PROMOTER.phone,
        email: TEST_PROMOTER.email,
      },
      charities: [],
      // No Stripe keys: the offline sandbox takes (test) card payments, and the page says so.
      payments: { provider: 'sandbox', publishableKey: null, testMode: true },
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await new TestClient(server.url).get('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ message: 'No API route for GET /api/no-such-thing', code: 'not_found' });
  });

  it('answers an address too long for Node with a JSON 431, not an empty body', async () => {
    const res = await new TestClient(server.url).get(`/api/competitions?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({
      message: 'The request headers or address are too long.',
      code: 'bad_request',
    });
    // The server goes on serving.
    expect((await new TestClient(server.url).get('/api/health')).status).toBe(200);
  });

  it('sets security headers', async () => {
    const res = await new TestClient(server.url).get('/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  describe('CSRF', () => {
    it('hands out a token bound to the session and accepts it back', async () => {
      const client = new TestClient(server.url);
      const token = await client.fetchCsrfToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // The same session gets the same token.
      expect(await client.fetchCsrfToken()).toBe(token);
      // With the token the request passes CSRF and reaches routing (no POST route here: 405).
      const res = await client.post('/api/competitions', {});
      expect(res.status).toBe(405);
    });

    it('refuses a mutating request without a token with 403 JSON', async () => {
      const client = new TestClient(server.url);
      await client.fetchCsrfToken();
      const res = await client.post('/api/competitions', {}, { 'X-CSRF-Token': '' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('csrf_invalid');
      expect(res.body.message).toMatch(/CSRF token/);
    });

    it("refuses another session's token", async () => {
      const alice = new TestClient(server.url);
      const mallory = new TestClient(server.url);
      const aliceToken = await alice.fetchCsrfToken();
      await mallory.fetchCsrfToken();
      const res = await mallory.post('/api/competitions', {}, { 'X-CSRF-Token': aliceToken });
      expect(res.status).toBe(403);
    });

    it('refuses a token sent without any session cookie', async () => {
      const alice = new TestClient(server.url);
      const token = await alice.fetchCsrfToken();
      const res = await fetch(`${server.url}/api/competitions`, {
        method: 'POST',
        headers: { 'X-CSRF-Token': token, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(403);
    });

    it('purges expired sessions and keeps live ones', async () => {
      const db = server.database.db;
      const live = new TestClient(server.url);
      await live.fetchCsrfToken();
      await db('sessions').insert({ id: 'expired-session-key', data: '{}', expiresAt: Date.now() - 1 });
      expect(await purgeExpiredSessions(db)).toBeGreaterThanOrEqual(1);
      expect(await db('sessions').where({ id: 'expired-session-key' }).first()).toBeUndefined();
      expect((await live.post('/api/competitions', {})).status).toBe(405); // still a valid session
    });

    it('keeps the session in the database, not in the cookie', async () => {
      const client = new TestClient(server.url);
      await client.fetchCsrfToken();
      const rows = await server.database.db('sessions').select('data');
      expect(rows.some((r: { data: string }) => r.data.includes(client.csrfToken!))).toBe(true);
      expect(client.cookieHeader).not.toContain(client.csrfToken!);
    });
  });

  it('turns a malformed JSON body into a 400 JSON error without a stack trace', async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.request('POST', '/api/competitions', '{"broken":', {
      'Content-Type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('emits clock { serverTime } to a socket on connect', async () => {
    const socket = io(server.url, { transports: ['websocket'], forceNew: true });
    try {
      const payload = await new Promise<{ serverTime: string }>((resolve, reject) => {
        socket.once('clock', resolve);
        socket.once('connect_error', reject);
      });
      const serverTime = Date.parse(payload.serverTime);
      expect(new Date(serverTime).toISOString()).toBe(payload.serverTime);
      expect(Math.abs(serverTime - Date.now())).toBeLessThan(5000);
    } finally {
      socket.disconnect();
    }
  });
});

describe.skipIf(engineUnavailable())(`request bodies on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a body over the limit with 413 JSON', async () => {
    const client = new TestClient(server.url);
    await client.fetchCsrfToken();
    const res = await client.post('/api/competitions', { padding: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The request body is too large.', code: 'payload_too_large' });
  });
});
