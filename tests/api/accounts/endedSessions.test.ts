import http from 'node:http';
import type { Knex } from 'knex';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkToken, registeredClient, waitForEmail } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

// A session that was ended stays ended (docs/security.md#sessions). The attack: a copy of the
// session cookie starts a request and keeps its body open; the owner ends the session; the copy
// then finishes the body, and koa-session saves the session it loaded at the start. That save must
// not bring the session back.

/** A POST whose body arrives in two parts: `finish()` sends the rest and resolves with the status. */
function slowPost(url: string, path: string, client: TestClient, body: string) {
  const target = new URL(path, url);
  let status: Promise<number> | undefined;
  const req = http.request(target, {
    method: 'POST',
    headers: {
      Cookie: client.cookieHeader,
      'X-CSRF-Token': client.csrfToken ?? '',
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    },
  });
  status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 3));
  return {
    finish: () => {
      req.end(body.slice(3));
      return status!;
    },
  };
}

/** Resolves once the server has read this session's row: the in-flight request holds the session. */
function sessionLoaded(db: Knex, key: string): Promise<void> {
  return new Promise((resolve) => {
    const onResponse = (_rows: unknown, query: { sql?: string; bindings?: unknown[] }) => {
      if (/from [`"]sessions[`"]/i.test(query.sql ?? '') && query.bindings?.includes(key)) {
        db.removeListener('query-response', onResponse);
        resolve();
      }
    };
    db.on('query-response', onResponse);
  });
}

const sessionKeyOf = (client: TestClient) => /wcp\.sid=([^;]+)/.exec(client.cookieHeader)![1]!;

describe.skipIf(engineUnavailable())(`an ended session stays ended on ${testEngine()}`, () => {
  let url: string;
  let dataDir: string;
  let db: Knex;
  let competitionId: number;
  useTestServer(
    (server) => {
      url = server.url;
      dataDir = server.database.dataDir;
      db = server.database.db;
    },
    { env: { ACCOUNT_EMAILS_PER_ADDRESS: '1000' } },
  );
  beforeAll(async () => {
    competitionId = await insertCompetition(db);
  });

  /** The owner signed in twice: `owner` and a copy of the cookie in `thief`'s hands. */
  async function ownerAndThief() {
    const { client: owner, body } = await registeredClient(url);
    const thief = new TestClient(url);
    await thief.fetchCsrfToken();
    const login = await thief.post('/api/login', { username: body.username, password: body.password });
    expect(login.status).toBe(200);
    await thief.fetchCsrfToken();
    return { owner, thief, body };
  }

  const ways: Array<
    [string, (owner: TestClient, body: { email: string; password: string }) => Promise<void>]
  > = [
    [
      'the owner changes the password',
      async (owner, body) => {
        const res = await owner.post('/api/account/password', {
          currentPassword: body.password,
          newPassword: 'another-secret-1',
        });
        expect(res.status, res.text).toBe(200);
      },
    ],
    [
      'the owner resets the password by e-mail',
      async (_owner, body) => {
        const anyone = new TestClient(url);
        await anyone.fetchCsrfToken();
        await anyone.post('/api/password/forgot', { email: body.email });
        const token = linkToken(
          await waitForEmail(dataDir, body.email, '/reset-password?token='),
          '/reset-password',
        );
        const res = await anyone.post('/api/password/reset', { token, password: 'another-secret-2' });
        expect(res.status, res.text).toBe(200);
      },
    ],
    [
      'the owner signs out the other sessions',
      async (owner) => {
        const res = await owner.post('/api/account/sessions/revoke-others');
        expect(res.status, res.text).toBe(200);
        expect(res.body.ended).toBe(1);
      },
    ],
  ];

  for (const [way, endSessions] of ways) {
    it(`a request in flight cannot bring it back: ${way}`, async () => {
      const { owner, thief, body } = await ownerAndThief();
      const key = sessionKeyOf(thief);
      const loaded = sessionLoaded(db, key);
      const slow = slowPost(
        url,
        `/api/competitions/${competitionId}/skill-answer`,
        thief,
        '{"answer":"365"}',
      );
      await loaded;

      await endSessions(owner, body);
      expect((await thief.get('/api/user')).status).toBe(401);

      expect(await slow.finish()).toBeGreaterThanOrEqual(200);
      expect((await thief.get('/api/user')).status).toBe(401);
      const row = await db('sessions').where({ id: key }).first();
      expect(row?.endedAt ?? 'deleted').not.toBeNull();
      if (way !== 'the owner resets the password by e-mail') {
        const listed = await owner.get('/api/account/sessions');
        expect(listed.status).toBe(200);
        expect(listed.body).toHaveLength(1);
      }
    });
  }
});
