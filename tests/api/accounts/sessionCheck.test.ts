import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredClient } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// GET /api/session is how the site asks who is signed in: a visitor gets 200 with user null, so a
// browser logs no failed request on every page load (GET /api/user keeps the spec's 401).
describe.skipIf(engineUnavailable())(`GET /api/session on ${testEngine()}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 200 with user null for a visitor, with or without a session, and is never cached', async () => {
    const fresh = await new TestClient(server.url).get('/api/session');
    expect(fresh.status).toBe(200);
    expect(fresh.body).toEqual({ user: null });
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    const guest = new TestClient(server.url);
    await guest.fetchCsrfToken(); // a guest session
    expect((await guest.get('/api/session')).body).toEqual({ user: null });
  });

  it('answers the signed-in user exactly as GET /api/user does, and null again after logout', async () => {
    const { client, body } = await registeredClient(server.url);
    const session = await client.get('/api/session');
    expect(session.status).toBe(200);
    expect(session.body.user).toMatchObject({ username: body.username, email: body.email, role: 'user' });
    expect(session.body.user).toEqual((await client.get('/api/user')).body);
    expect(JSON.stringify(session.body)).not.toMatch(/password|scrypt/i);
    expect((await client.post('/api/logout')).status).toBe(200);
    expect((await client.get('/api/session')).body).toEqual({ user: null });
  });

  it('treats a deleted account as signed out', async () => {
    const { client, user } = await registeredClient(server.url);
    await server.database.db('users').where({ id: user.id }).update({ deletedAt: Date.now() });
    const res = await client.get('/api/session');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: null });
  });
});
