import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { ALL_ROUTES, CONDITIONAL_ROUTES } from '../../../contract/apiRoutes';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// The route table (contract/apiRoutes.ts) is the API: the router holds each entry exactly once,
// with its method and path, and nothing else.

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe.skipIf(engineUnavailable())(`the route table on ${testEngine()}`, () => {
  let server: TestServer;
  let registered: string[];
  beforeAll(async () => {
    server = await startTestServer();
    const { router } = createApp(server.deps, { gateway: server.gateway });
    registered = router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((method) => key({ method, path: String(layer.path) })),
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists each route once', () => {
    const keys = ALL_ROUTES.map(key);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  it('registers every entry exactly once, with its method and path', () => {
    const optional = new Set(CONDITIONAL_ROUTES.map(key));
    for (const entry of ALL_ROUTES) {
      const times = registered.filter((k) => k === key(entry)).length;
      if (optional.has(key(entry))) expect(times, key(entry)).toBeLessThanOrEqual(1);
      else expect(times, key(entry)).toBe(1);
    }
  });

  it('registers no route outside the table', () => {
    const table = new Set(ALL_ROUTES.map(key));
    expect(registered.filter((k) => !table.has(k))).toEqual([]);
    expect(registered.length).toBeGreaterThan(100);
  });
});
