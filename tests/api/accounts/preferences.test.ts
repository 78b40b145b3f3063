import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { registeredClient } from '../../support/accounts';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Marketing consent: off by default, the same box at registration, PUT /api/account/preferences,
// each change recorded with its time.

describe.skipIf(engineUnavailable())(`marketing consent on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const consentRow = async (id: number) => {
    const row = await db('users').where({ id }).first('marketingEmails', 'marketingEmailsUpdatedAt');
    return { on: Boolean(row.marketingEmails), at: row.marketingEmailsUpdatedAt as number | null };
  };

  it('is off unless the registration box is ticked, and the choice is recorded with its time', async () => {
    const before = Date.now();
    const plain = await registeredClient(server.url);
    expect(plain.user.marketingEmails).toBe(false);
    expect((await plain.client.get('/api/user')).body.marketingEmails).toBe(false);
    const off = await consentRow(plain.user.id);
    expect(off.on).toBe(false);

    const ticked = await registeredClient(server.url, { marketingEmails: true });
    expect(ticked.user.marketingEmails).toBe(true);
    const on = await consentRow(ticked.user.id);
    expect(on.on).toBe(true);
    expect(Number(on.at)).toBeGreaterThanOrEqual(before);
  });

  it('PUT /api/account/preferences turns it on and off, recording when it changed', async () => {
    const { client, user } = await registeredClient(server.url);
    const t0 = Date.now();
    const on = await client.request('PUT', '/api/account/preferences', { marketingEmails: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.marketingEmails).toBe(true);
    const onAt = Date.parse(on.body.marketingEmailsUpdatedAt);
    expect(onAt).toBeGreaterThanOrEqual(t0);
    expect(await consentRow(user.id)).toEqual({ on: true, at: onAt });
    expect((await client.get('/api/user')).body.marketingEmails).toBe(true);

    // The same choice again keeps the time consent was given.
    await new Promise((r) => setTimeout(r, 5));
    const again = await client.request('PUT', '/api/account/preferences', { marketingEmails: true });
    expect(again.body.marketingEmailsUpdatedAt).toBe(on.body.marketingEmailsUpdatedAt);

    const off = await client.request('PUT', '/api/account/preferences', { marketingEmails: false });
    expect(off.status).toBe(200);
    expect(off.body.marketingEmails).toBe(false);
    expect(Date.parse(off.body.marketingEmailsUpdatedAt)).toBeGreaterThan(onAt);
    expect((await consentRow(user.id)).on).toBe(false);
  });

  it('refuses bad input with a clear 400 and changes nothing; signed out is 401', async () => {
    const { client, user } = await registeredClient(server.url);
    const before = await consentRow(user.id);
    for (const body of [{}, { marketingEmails: 'yes' }, { marketingEmails: 1 }, { marketingEmails: null }]) {
      const res = await client.request('PUT', '/api/account/preferences', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe('Marketing e-mails must be on (true) or off (false)');
    }
    expect(await consentRow(user.id)).toEqual(before);

    const registerBad = new TestClient(server.url);
    await registerBad.fetchCsrfToken();
    const bad = await registerBad.post('/api/register', {
      username: 'consentbad',
      email: 'consentbad@example.com',
      password: 'secret123',
      phoneNumber: '07700 900123',
      dateOfBirth: '1990-04-01',
      ageConfirmation: true,
      ukResidency: true,
      termsAgreement: true,
      marketingEmails: 'on',
    });
    expect(bad.status).toBe(400);
    expect(await db('users').where({ username: 'consentbad' })).toEqual([]);

    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken();
    expect((await visitor.request('PUT', '/api/account/preferences', { marketingEmails: true })).status).toBe(
      401,
    );
  });
});
