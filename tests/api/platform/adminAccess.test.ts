import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Every admin and upload route, read from the router's own table (so a route added later without
// the guard fails here), answers a visitor 401 and a customer 403, and changes nothing.

const GUARDED = /^\/api\/(admin|uploads|direct-upload)(\/|$)/;
const PUBLIC = new Set(['GET /api/admin/hero-image']);

describe.skipIf(engineUnavailable())(`admin access on ${testEngine()}`, () => {
  let server: TestServer;
  let routes: Array<{ method: string; path: string }>;
  beforeAll(async () => {
    server = await startTestServer();
    const { router } = createApp(server.deps, { gateway: server.gateway });
    routes = router.stack.flatMap((layer) =>
      typeof layer.path === 'string' && GUARDED.test(layer.path)
        ? layer.methods
            .filter((m) => m !== 'HEAD')
            .map((method) => ({ method, path: (layer.path as string).replace(/:[A-Za-z]+/g, '1') }))
            .filter((r) => !PUBLIC.has(`${r.method} ${r.path}`))
        : [],
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('finds every admin and upload route of the spec in the table', () => {
    const table = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const expected of [
      'GET /api/admin/dashboard',
      'GET /api/admin/competitions',
      'POST /api/admin/competitions',
      'PUT /api/admin/competitions/1',
      'DELETE /api/admin/competitions/1',
      'GET /api/admin/competitions/1/export-csv',
      'POST /api/admin/upload-image',
      'GET /api/admin/users',
      'PATCH /api/admin/users/1/role',
      'DELETE /api/admin/users/1',
      'GET /api/admin/tickets/lookup',
      'GET /api/admin/orders',
      'GET /api/admin/orders/1',
      'POST /api/admin/orders/1/cancel',
      'POST /api/uploads/hero-image',
      'DELETE /api/uploads/hero-image',
      'POST /api/direct-upload/hero-image',
      'POST /api/direct-upload',
      'POST /api/direct-upload/competition-image',
      'GET /api/admin/promos',
      'POST /api/admin/promos',
      'PUT /api/admin/promos/1',
      'DELETE /api/admin/promos/1',
      'POST /api/admin/reset-all-credits',
      'GET /api/admin/customers',
      'GET /api/admin/customers/1',
      'POST /api/admin/customers/1/credit',
      'POST /api/admin/customers/1/notes',
      'GET /api/admin/export/orders.csv',
      'GET /api/admin/export/live-competitions.csv',
    ]) {
      expect(table, expected).toContain(expected);
    }
  });

  it('answers a signed-out visitor 401 and a customer 403 on every one of them', async () => {
    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken(); // a CSRF token, so the 401 comes from the guard
    const { client: customer } = await signedInCustomer(server.url);
    const before = await server.deps.db('auditLog').count({ n: '*' }).first();
    for (const { method, path } of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const asVisitor = await visitor.request(method, path, body);
      expect(asVisitor.status, `${method} ${path} as visitor`).toBe(401);
      expect(asVisitor.body.code).toBe('unauthenticated');
      const asCustomer = await customer.request(method, path, body);
      expect(asCustomer.status, `${method} ${path} as customer`).toBe(403);
      expect(asCustomer.body).toMatchObject({
        code: 'forbidden',
        message: "You don't have admin privileges",
      });
    }
    expect(await server.deps.db('auditLog').count({ n: '*' }).first()).toEqual(before);
  });

  it('lets the public read the hero image, and an admin through', async () => {
    const visitor = new TestClient(server.url);
    const hero = await visitor.get('/api/admin/hero-image');
    expect(hero.status).toBe(200);
    expect(hero.body).toEqual({ imageUrl: '/images/hero-default.svg', isDefault: true });
    const { client: admin } = await signedInAdmin(server.url);
    const dashboard = await admin.get('/api/admin/dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toEqual({
      userCount: expect.any(Number),
      competitionCount: 0,
      orderCount: 0,
      reconciledPaymentCount: 0,
    });
  });

  it('refuses a multipart upload from a customer before reading it', async () => {
    const { client: customer } = await signedInCustomer(server.url);
    const res = await fetch(`${server.url}/api/admin/upload-image`, {
      method: 'POST',
      headers: {
        'Content-Type': 'multipart/form-data; boundary=x',
        Cookie: customer.cookieHeader,
        'X-CSRF-Token': customer.csrfToken!,
      },
      body: '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n--x--\r\n',
    });
    expect(res.status).toBe(403);
  });
});
