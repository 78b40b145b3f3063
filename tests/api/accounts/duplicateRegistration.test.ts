import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRetryableTxError, isUniqueViolation } from '../../../db/dialect';
import { SiteSetting, User } from '../../../db/models';
import { registration, shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Issue 16, point 4: a unique-key conflict is recognised however the query was made (objection
// wraps MySQL's errors, knex does not), so a lost race is the same 409 on both engines, never a 500.

const USERNAME_TAKEN = 'That username is already taken. Please choose another.';
const EMAIL_TAKEN = 'An account with this email address already exists. Please log in instead.';

describe.skipIf(engineUnavailable())(`unique-key conflicts on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const visitors = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const c = new TestClient(server.url);
        await c.fetchCsrfToken();
        return c;
      }),
    );

  it('10 parallel registrations of one username: one 201, nine 409 on the username field', async () => {
    const base = registration();
    const clients = await visitors(10);
    const results = await Promise.all(
      clients.map((c, i) => c.post('/api/register', { ...base, email: `same-name-${i}-${base.email}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({
        message: USERNAME_TAKEN,
        code: 'conflict',
        details: { fields: { username: USERNAME_TAKEN } },
      });
    }
    const rows = await db('users').whereRaw('lower(username) = ?', [base.username.toLowerCase()]);
    expect(rows).toHaveLength(1);
  }, 60_000);

  it('10 parallel registrations of one e-mail: one 201, nine 409 on the email field', async () => {
    const base = registration();
    const clients = await visitors(10);
    const results = await Promise.all(
      clients.map((c, i) => c.post('/api/register', { ...base, username: `${base.username}e${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({
        message: EMAIL_TAKEN,
        code: 'conflict',
        details: { fields: { email: EMAIL_TAKEN } },
      });
    }
    expect(await db('users').whereRaw('lower(email) = ?', [base.email.toLowerCase()])).toHaveLength(1);
  }, 60_000);

  it('10 parallel holds of one number: one 201, nine 409 number_taken', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const clients = await Promise.all(Array.from({ length: 10 }, () => shopper(server.url, id)));
    const results = await Promise.all(
      clients.map((c) => c.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [7] })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('number_taken');
    expect(await db('tickets').where({ competitionId: id, number: 7 })).toHaveLength(1);
  });

  it('recognises the conflict from objection models and plain knex alike (users, settings)', async () => {
    const caught = async (work: () => PromiseLike<unknown>) => {
      try {
        await work();
      } catch (err) {
        return err;
      }
      throw new Error('expected a unique-key violation');
    };
    const now = Date.now();
    const user = {
      username: 'twin',
      email: 'twin@example.co.uk',
      passwordHash: 'x',
      phoneNumber: '07700900123',
      role: 'user' as const,
      siteCreditPence: 0,
      createdAt: now,
      updatedAt: now,
    };
    await db('users').insert(user);
    await db('siteSettings').insert({ key: 'twin', value: 'a', createdAt: now, updatedAt: now });

    const errors = [
      await caught(() => User.query(db).insert({ ...user, username: 'TWIN', email: 'other@example.co.uk' })),
      await caught(() => db('users').insert({ ...user, email: 'third@example.co.uk' })),
      await caught(() =>
        SiteSetting.query(db).insert({ key: 'twin', value: 'b', createdAt: now, updatedAt: now }),
      ),
      await caught(() =>
        db('siteSettings').insert({ key: 'twin', value: 'b', createdAt: now, updatedAt: now }),
      ),
    ];
    expect(errors.map(isUniqueViolation)).toEqual(Array(errors.length).fill(true));
    expect(errors.map(isRetryableTxError)).toEqual(Array(errors.length).fill(false));
  });
});
