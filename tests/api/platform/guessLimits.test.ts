import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { CODE_ATTEMPTS } from '../../../api/accounts/twoFactor';
import { registeredClient } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// RATE_LIMITS=off is for benchmarks and load tools: it lets load through, but a limit on guessing a
// secret or on sending e-mail to someone's address is security, and stays on (docs/security.md).

describe.skipIf(engineUnavailable())(`guess limits with RATE_LIMITS=off on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer(
    (s) => {
      server = s;
    },
    { env: { RATE_LIMITS: 'off' } },
  );

  it('still limits guesses at a two-factor code', async () => {
    const { client: owner, body } = await registeredClient(server.url);
    const setup = await owner.post('/api/account/2fa/setup', {});
    const secret = Secret.fromBase32(setup.body.secret);
    expect(
      (
        await owner.post('/api/account/2fa/enable', {
          password: body.password,
          code: TOTP.generate({ secret }),
        })
      ).status,
    ).toBe(200);

    const thief = new TestClient(server.url);
    await thief.fetchCsrfToken();
    expect(
      (await thief.post('/api/login', { username: body.username, password: body.password })).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i <= CODE_ATTEMPTS; i++) {
      statuses.push((await thief.post('/api/login/2fa', { code: String(100000 + i) })).status);
    }
    expect(statuses.slice(0, CODE_ATTEMPTS).every((s) => s === 400)).toBe(true);
    expect(statuses[CODE_ATTEMPTS]).toBe(429);
  });

  it('still limits guesses at promo codes', async () => {
    const { client } = await registeredClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await client.post('/api/account/promo-code', { code: `GUESS${i}` })).status);
    }
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('still limits the e-mails one mailbox can be sent', async () => {
    const { body } = await registeredClient(server.url);
    const anyone = new TestClient(server.url);
    await anyone.fetchCsrfToken();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await anyone.post('/api/password/forgot', { email: body.email })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});
