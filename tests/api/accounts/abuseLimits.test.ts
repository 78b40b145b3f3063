import { afterEach, describe, expect, it, vi } from 'vitest';
import * as passwords from '../../../api/accounts/passwords';
import { linkToken, registeredClient, registration, waitForEmail } from '../../support/accounts';
import { insertPromo } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 15, points 2 and 7: parallel guesses and scripted sign-ups, each from addresses given by
// X-Forwarded-For behind a trusted proxy.

const from = (address: string) => ({ 'X-Forwarded-For': address });

async function visitor(url: string) {
  const client = new TestClient(url);
  await client.fetchCsrfToken();
  return client;
}

/** Every refusal is the same 429: code, a Retry-After in whole seconds, and the wait in words. */
function expectLoginRefusal(res: Awaited<ReturnType<TestClient['post']>>) {
  expect(res.status).toBe(429);
  expect(res.body.code).toBe('rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(res.body.message).toMatch(/^Too many login attempts\. Please try again in \d+ (second|minute)s?\.$/);
  return retryAfter;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(engineUnavailable())(`login throttling under parallel guesses on ${testEngine()}`, () => {
  let server: TestServer;
  useTestServer(
    (s) => {
      server = s;
    },
    { env: { TRUST_PROXY: '1' } },
  );

  it('of 30 parallel wrong guesses from one address checks at most 5; the owner elsewhere still signs in', async () => {
    const { body: owner } = await registeredClient(server.url);
    const attacker = await visitor(server.url);
    const verify = vi.spyOn(passwords, 'verifyPassword');

    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        attacker.post(
          '/api/login',
          { username: owner.username, password: 'wrong-guess' },
          from('203.0.113.10'),
        ),
      ),
    );

    // Counted before the scrypt: only the first 5 reach the password check.
    expect(verify).toHaveBeenCalledTimes(5);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    for (const res of answers.filter((r) => r.status === 429)) {
      expect(expectLoginRefusal(res)).toBeGreaterThan(800);
      expect(res.body.message).toBe('Too many login attempts. Please try again in 15 minutes.');
    }

    // The right password from the attacker's address is refused too (it is not even checked) ...
    verify.mockClear();
    const same = await attacker.post(
      '/api/login',
      { username: owner.username, password: owner.password },
      from('203.0.113.10'),
    );
    expectLoginRefusal(same);
    expect(verify).not.toHaveBeenCalled();

    // ... but the owner at home is not locked out.
    const home = await visitor(server.url);
    const signedIn = await home.post(
      '/api/login',
      { username: owner.username, password: owner.password },
      from('198.51.100.23'),
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.username).toBe(owner.username);
    expect((await home.get('/api/user')).body.username).toBe(owner.username);
  });

  it('the e-mail address and the username share one budget', async () => {
    const { body: owner } = await registeredClient(server.url);
    const attacker = await visitor(server.url);
    const names = [owner.username, owner.email, owner.email.toUpperCase(), ` ${owner.username} `];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        attacker.post(
          '/api/login',
          { username: names[i % 4], password: 'wrong-guess' },
          from('203.0.113.11'),
        ),
      ),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(7);
  });

  it('stops credential stuffing: one address gets 20 failed guesses across all usernames', async () => {
    const { body: victim } = await registeredClient(server.url);
    const stuffer = await visitor(server.url);
    const verify = vi.spyOn(passwords, 'verifyPassword');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        stuffer.post('/api/login', { username: `leaked${i}`, password: 'Password1' }, from('203.0.113.40')),
      ),
    );
    expect(verify).toHaveBeenCalledTimes(20);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(20);
    for (const res of answers.filter((r) => r.status !== 401)) expectLoginRefusal(res);

    // The address is spent, whichever name it tries next; other addresses are untouched.
    expectLoginRefusal(
      await stuffer.post(
        '/api/login',
        { username: victim.username, password: victim.password },
        from('203.0.113.40'),
      ),
    );
    const other = await visitor(server.url);
    const ok = await other.post(
      '/api/login',
      { username: victim.username, password: victim.password },
      from('203.0.113.41'),
    );
    expect(ok.status).toBe(200);
  });

  it('a success clears that username and address, so a few typos later do not add up', async () => {
    const { body: owner } = await registeredClient(server.url);
    const client = await visitor(server.url);
    const login = (password: string) =>
      client.post('/api/login', { username: owner.username, password }, from('203.0.113.50'));
    for (let i = 0; i < 4; i++) expect((await login('typo')).status).toBe(401);
    expect((await login(owner.password)).status).toBe(200);
    await client.fetchCsrfToken();
    for (let i = 0; i < 4; i++) expect((await login('typo')).status).toBe(401);
    expect((await login(owner.password)).status).toBe(200);
  });
});

describe.skipIf(engineUnavailable())(`per-account delay instead of a lock on ${testEngine()}`, () => {
  let server: TestServer;
  // Small numbers: 3 free failures, then at most 2 s apart; the test moves the clock past the wait.
  useTestServer(
    (s) => {
      server = s;
    },
    {
      env: { TRUST_PROXY: '1', LOGIN_ACCOUNT_FREE_FAILURES: '3', LOGIN_ACCOUNT_MAX_DELAY_SECONDS: '2' },
    },
  );

  it('guesses from many addresses slow down on the account, and the owner gets in after the wait', async () => {
    const { body: owner } = await registeredClient(server.url);
    const verify = vi.spyOn(passwords, 'verifyPassword');
    const botnet = await visitor(server.url);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        botnet.post('/api/login', { username: owner.username, password: 'wrong' }, from(`192.0.2.${i + 1}`)),
      ),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    // 3 free failures, then one guess per delay (1 s, then 2 s): the 4th opens the gate and the
    // rest wait. On a slow machine the burst may outlast a delay and let one more through.
    const checked = verify.mock.calls.length;
    expect(checked).toBeGreaterThanOrEqual(4);
    expect(checked).toBeLessThanOrEqual(4 + Math.floor(elapsedSeconds));
    expect(answers.filter((r) => r.status === 401)).toHaveLength(checked);
    const waits = answers.filter((r) => r.status === 429).map(expectLoginRefusal);
    expect(waits).toHaveLength(20 - checked);
    expect(Math.max(...waits)).toBeLessThanOrEqual(2);

    // No hard lock: after the longest wait (the 2 s cap) the owner, from an address of their own,
    // signs in. The wait is on the clock the limits read (rate-limiter-flexible's memory store
    // compares Date.now() with each key's expiry): moved on 2.2 s, not waited for.
    const home = await visitor(server.url);
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 2200);
      const res = await home.post(
        '/api/login',
        { username: owner.username, password: owner.password },
        from('198.51.100.99'),
      );
      expect(res.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe.skipIf(engineUnavailable())(`registrations per address on ${testEngine()}`, () => {
  let server: TestServer;
  // '' = the shipped default (3 an hour), not the suites' test allowance.
  useTestServer(
    (s) => {
      server = s;
    },
    { env: { TRUST_PROXY: '1', REGISTRATIONS_PER_ADDRESS: '' } },
  );

  it('25 scripted sign-ups from one address get at most £25 of welcome credit; the rest are 429', async () => {
    const promo = await insertPromo(server.database.db, { name: 'Welcome £5', creditAmountPence: 500 });
    const bodies = Array.from({ length: 25 }, () => registration());
    const answers = await Promise.all(
      bodies.map(async (body) =>
        (await visitor(server.url)).post('/api/register', body, from('203.0.113.77')),
      ),
    );

    const created = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status === 429);
    expect(created).toHaveLength(3);
    expect(refused).toHaveLength(22);
    for (const res of refused) {
      expect(res.body.code).toBe('rate_limited');
      expect(res.body.message).toBe(
        'Too many accounts have been created from your connection. Please try again in 60 minutes.',
      );
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
    }

    const { db } = server.database;
    const users = await db('users').whereIn(
      'username',
      bodies.map((b) => b.username),
    );
    expect(users).toHaveLength(3);
    // The welcome credit is paid when each address is confirmed.
    for (const user of users) {
      const mail = await waitForEmail(server.database.dataDir, user.email, '/verify-email?token=');
      const answer = await (await visitor(server.url)).post('/api/verify-email', {
        token: linkToken(mail, '/verify-email'),
      });
      expect(answer.status).toBe(200);
    }
    const confirmed = await db('users').whereIn(
      'username',
      bodies.map((b) => b.username),
    );
    const balances = confirmed.reduce((sum, u) => sum + Number(u.siteCreditPence), 0);
    const ledger = await db('creditTransactions')
      .where({ promoConfigId: promo, type: 'credit' })
      .sum({ pence: 'amountPence' })
      .first();
    expect(Number(ledger?.pence)).toBe(1500);
    expect(balances).toBe(1500);
    expect(balances).toBeLessThanOrEqual(2500);

    // Another address is not affected.
    const elsewhere = await (await visitor(server.url)).post(
      '/api/register',
      registration(),
      from('198.51.100.5'),
    );
    expect(elsewhere.status).toBe(201);
  });

  it('a refused sign-up (name taken) does not use up a place', async () => {
    const address = from('203.0.113.78');
    const first = registration();
    expect((await (await visitor(server.url)).post('/api/register', first, address)).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const dup = await (await visitor(server.url)).post(
        '/api/register',
        registration({ username: first.username }),
        address,
      );
      expect(dup.status).toBe(409);
    }
    for (let i = 0; i < 2; i++)
      expect((await (await visitor(server.url)).post('/api/register', registration(), address)).status).toBe(
        201,
      );
    expect((await (await visitor(server.url)).post('/api/register', registration(), address)).status).toBe(
      429,
    );
  });
});
