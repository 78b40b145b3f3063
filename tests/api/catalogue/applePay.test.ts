import { describe, expect, it } from 'vitest';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 39 §5: Apple Pay's domain-association file is served from APPLE_PAY_DOMAIN_ASSOCIATION,
// so the wallet can work in production; without the setting the path is a plain 404.

const PATH = '/.well-known/apple-developer-merchantid-domain-association';
const FILE = '7B227073704964223A2241423132333435363738393041424344454646222C2276657273696F6E223A317D';

describe.skipIf(engineUnavailable())(`Apple Pay's domain-association file, set, on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer(
    (started) => {
      server = started;
    },
    { env: { APPLE_PAY_DOMAIN_ASSOCIATION: FILE } },
  );

  it('serves the setting as plain text', async () => {
    const res = await fetch(server.url + PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(FILE);
  });
});

describe.skipIf(engineUnavailable())(`Apple Pay's domain-association file, unset, on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer((started) => {
    server = started;
  });

  it('answers 404', async () => {
    const res = await fetch(server.url + PATH);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      message: 'Apple Pay is not set up: set APPLE_PAY_DOMAIN_ASSOCIATION.',
    });
  });
});
