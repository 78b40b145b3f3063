import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Issue 15, point 1: CSRF was checked only on paths starting with a lower-case '/api/', while the
// router matched any case, so `POST /API/login` with no token signed a browser in. Every
// state-changing route, read from the router's own table, is tried under other spellings of its
// path: none is let through, and nothing changes.

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// Every table but sessions (a request may refresh its own session row without changing anything).
const TABLES = [
  'auditLog',
  'cartItems',
  'cartRevisions',
  'competitionVersions',
  'competitions',
  'creditTransactions',
  'draws',
  'orderItems',
  'orders',
  'paymentEvents',
  'promoConfigs',
  'sandboxPaymentIntents',
  'sandboxRefunds',
  'siteSettings',
  'ticketEvents',
  'tickets',
  'userEntries',
  'users',
];

/** Other spellings of a canonical `/api/...` path that a lenient router or prefix check could take for it. */
function otherSpellings(path: string): string[] {
  const rest = path.slice('/api'.length); // '/login'
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
  return [
    `/API${rest}`,
    `/Api${rest}`,
    path.toUpperCase(),
    `/api/${rest}`, // /api//login
    `/%61pi${rest}`,
    `/api/${hex(rest[1]!)}${rest.slice(2)}`, // /api/%6Cogin
    `/api${rest.replace(/^\/([a-z])/, (_, c: string) => `/${c.toUpperCase()}`)}`, // /api/Login
    `${path}/`,
  ];
}

describe.skipIf(engineUnavailable())(`API path spellings on ${testEngine()}`, () => {
  let server: TestServer;
  let routes: Array<{ method: string; path: string }>;

  const snapshot = async () => {
    const tables: Record<string, string[]> = {};
    for (const table of TABLES) {
      const rows = await server.deps.db(table).select('*');
      tables[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return tables;
  };

  const send = (method: string, path: string, cookie: string, csrfToken?: string) =>
    fetch(server.url + path, {
      method,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Cookie: cookie,
        ...(csrfToken ? { 'X-CSRF-Token': csrfToken } : {}),
      },
      body: method === 'DELETE' ? undefined : '{}',
      redirect: 'manual',
    });

  beforeAll(async () => {
    server = await startTestServer();
    const { router } = createApp(server.deps, { gateway: server.gateway });
    routes = router.stack.flatMap((layer) =>
      typeof layer.path === 'string'
        ? layer.methods
            .filter((m) => STATE_CHANGING.has(m))
            .map((method) => ({ method, path: (layer.path as string).replace(/:[A-Za-z]+/g, '1') }))
        : [],
    );
    // Something for each route to change: competition 1, a customer with welcome credit.
    await insertCompetition(server.deps.db);
    await signedInCustomer(server.url);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reads the state-changing routes from the table, sign-in and the admin reset among them', () => {
    const table = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'POST /api/login',
      'POST /api/logout',
      'POST /api/register',
      'POST /api/cart',
      'POST /api/admin/reset-all-credits',
      'PUT /api/admin/competitions/1',
      'PATCH /api/admin/users/1/role',
      'DELETE /api/admin/users/1',
      'POST /api/stripe/webhook',
    ]) {
      expect(table).toContain(expected);
    }
    expect(routes.length).toBeGreaterThan(30);
  });

  it('refuses every other spelling of every state-changing route, with an admin cookie and no token', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const before = await snapshot();
    const letThrough: string[] = [];
    for (const { method, path } of routes) {
      for (const spelling of otherSpellings(path)) {
        const res = await send(method, spelling, admin.cookieHeader);
        const body = (await res.json().catch(() => undefined)) as { code?: string } | undefined;
        const refused =
          (res.status === 403 && body?.code === 'csrf_invalid') ||
          (res.status === 404 && body?.code === 'not_found');
        if (!refused) letThrough.push(`${method} ${spelling}: ${res.status} ${JSON.stringify(body)}`);
      }
    }
    expect(letThrough).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // Not signed out by a misspelt POST /API/logout either.
    expect((await admin.get('/api/user')).status).toBe(200);
  });

  it('runs no handler for another spelling even with a valid token: only the canonical path is routed', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const before = await snapshot();
    const routed: string[] = [];
    for (const { method, path } of routes) {
      for (const spelling of otherSpellings(path)) {
        const res = await send(method, spelling, admin.cookieHeader, admin.csrfToken);
        const body = (await res.json().catch(() => undefined)) as { code?: string } | undefined;
        if (res.status !== 404 || body?.code !== 'not_found') {
          routed.push(`${method} ${spelling}: ${res.status} ${JSON.stringify(body)}`);
        }
      }
    }
    expect(routed).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect((await admin.get('/api/user')).status).toBe(200);
  });

  it('does not sign a browser in through POST /API/login without a token (the cross-site form attack)', async () => {
    const { user, password } = await signedInCustomer(server.url);
    for (const path of [
      '/API/login',
      '/Api/login',
      '/api//login',
      '/%61pi/login',
      '/api/Login',
      '/api/login/',
    ]) {
      const victim = new TestClient(server.url);
      await victim.get('/api/user'); // a session cookie, as a browser would have
      const res = await fetch(server.url + path, {
        method: 'POST',
        // What an auto-submitting form on another site sends: the cookie, no token.
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: victim.cookieHeader },
        body: new URLSearchParams({ username: user.username, password }).toString(),
        redirect: 'manual',
      });
      expect([403, 404], `${path}: ${res.status}`).toContain(res.status);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const me = await victim.get('/api/user');
      expect(me.status, path).toBe(401);
    }
  });

  it('checks the token on every path, not only under /api, and exempts only the exact webhook path', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    for (const [method, path] of [
      ['POST', '/'],
      ['PUT', '/uploads/x.png'],
      ['PATCH', '/competitions/1'],
      ['DELETE', '/socket'],
      ['POST', '/API/stripe/webhook'],
      ['POST', '/api/stripe/webhook/'],
    ] as const) {
      const res = await send(method, path, admin.cookieHeader);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'csrf_invalid' });
    }
    // The canonical webhook path is not refused for want of a token (Stripe's signature is checked instead).
    const webhook = await send('POST', '/api/stripe/webhook', '');
    expect(webhook.status).not.toBe(403);
  });

  it('answers a GET for another API spelling with a JSON 404, not the client app', async () => {
    const visitor = new TestClient(server.url);
    for (const path of ['/API/health', '/api//health', '/%61pi/health', '/api/Health', '/api/health/']) {
      const res = await visitor.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toMatchObject({ code: 'not_found' });
    }
    expect((await visitor.get('/api/health')).status).toBe(200);
  });
});
