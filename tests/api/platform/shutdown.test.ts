import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../contract/errors';
import { type AppProcess, freePort, sleep, startAppProcess } from '../../support/appProcess';
import { card } from '../../support/checkout';
import { makeCustomers, type Shopper, signIn } from '../../support/fastCustomers';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import {
  doubleSales,
  miscounted,
  orphanedHolds,
  unpaidCompletedOrders,
  unsettledPayments,
} from '../../support/paymentInvariants';
import { createTestDatabase, engineUnavailable, type TestDatabase } from '../../support/testDatabase';

// SIGTERM drains (docs/operations.md#restarts): the real server process, 50 customers checking out
// at once, and a SIGTERM while their payments are being confirmed. Every request either completes
// or is refused in a way a client may retry without a doubt (a 503 with Retry-After before
// anything was done, or a refused connection); nothing is cut off half-way, the process exits 0,
// and the database shows nothing lost.

const CUSTOMERS = 50;
/** SIGTERM once this many customers have sent their card. */
const SIGTERM_AFTER_CONFIRMS = 15;
const STAGGER_MS = 40;

type Step = 'hold' | 'checkout' | 'confirm';
type Outcome = { kind: 'done'; step: Step } | { kind: 'retryable'; step: Step; how: string };

/** One request: its answer, or the reason it may be retried; anything else fails the test. */
async function send(
  s: Shopper,
  path: string,
  body: unknown,
): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; how: string }> {
  let res: Awaited<ReturnType<Shopper['client']['post']>>;
  try {
    res = await s.client.post(path, body);
  } catch (err) {
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ECONNREFUSED') return { ok: false, how: 'connection refused' };
    throw new Error(`${path}: cut off mid-request (${code ?? (err as Error).message})`);
  }
  if (res.status === 503) {
    expect(res.body.code).toBe(ERROR_CODES.unavailable);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    return { ok: false, how: '503 Retry-After' };
  }
  if (res.status < 200 || res.status > 299) throw new Error(`${path}: ${res.status} ${res.text}`);
  return { ok: true, body: res.body };
}

/** Hold one number, start checkout, pay by card; stops at the first retryable refusal. */
async function purchase(
  s: Shopper,
  competitionId: number,
  n: number,
  onConfirm: () => void,
): Promise<Outcome> {
  const held = await send(s, '/api/cart', { competitionId, quantity: 1, selectedNumbers: [n] });
  if (!held.ok) return { kind: 'retryable', step: 'hold', how: held.how };
  const intent = await send(s, '/api/create-payment-intent', {});
  if (!intent.ok) return { kind: 'retryable', step: 'checkout', how: intent.how };
  onConfirm();
  const paid = await send(s, '/api/payments/sandbox/confirm', {
    clientSecret: intent.body.clientSecret,
    ...card(),
  });
  if (!paid.ok) return { kind: 'retryable', step: 'confirm', how: paid.how };
  return { kind: 'done', step: 'confirm' };
}

describe.skipIf(engineUnavailable())('SIGTERM during checkouts', () => {
  let database: TestDatabase | undefined;
  let server: AppProcess | undefined;
  afterAll(async () => {
    await server?.kill();
    await database?.drop();
  });

  it(`loses nothing: ${CUSTOMERS} concurrent checkouts either complete or are refused retryably`, async () => {
    database = await createTestDatabase();
    const { db } = database;
    const competitionId = await insertCompetition(db, { totalTickets: 200, ticketPricePence: 100 });
    server = startAppProcess({
      port: await freePort(),
      databaseUrl: database.databaseUrl,
      dataDir: database.dataDir,
      env: { SHUTDOWN_GRACE_MS: '20000', RECONCILE_INTERVAL_MS: '0', SWEEP_INTERVAL_MS: '1000' },
    });
    // The customers are made while the process starts.
    const ids = await makeCustomers(db, CUSTOMERS, 'drain', 0);
    expect(await server.ready()).toBe(true);
    const running = server;
    const shoppers = await Promise.all(
      ids.map((id, i) => signIn(running.url, id, `drain${i}`, [competitionId])),
    );

    let confirms = 0;
    let signalled = false;
    const onConfirm = () => {
      if (++confirms === SIGTERM_AFTER_CONFIRMS) {
        signalled = true;
        running.child.kill('SIGTERM');
      }
    };
    const outcomes = await Promise.all(
      // Spread out, so the signal finds customers at every step.
      shoppers.map(async (s, i) => {
        await sleep(i * STAGGER_MS);
        return purchase(s, competitionId, i + 1, onConfirm);
      }),
    ).catch((err) => {
      throw new Error(`${err.message}\nserver log:\n${running.log.join('').slice(-3000)}`);
    });
    expect(signalled, 'SIGTERM was sent mid-checkout').toBe(true);
    expect(await running.exited, running.log.join('')).toBe(0);

    const done = outcomes.filter((o) => o.kind === 'done').length;
    const summary = JSON.stringify(
      outcomes.reduce<Record<string, number>>((counts, o) => {
        const key = o.kind === 'done' ? 'bought' : `${o.step}: ${o.how}`;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {}),
    );
    // The payments in flight when the signal came were finished, not cut off; later ones refused.
    // The confirm that sends the signal goes out just after it, so it may be refused (503).
    expect(done, summary).toBeGreaterThanOrEqual(SIGTERM_AFTER_CONFIRMS - 1);
    expect(done, summary).toBeLessThan(CUSTOMERS);

    // Every customer who was told 'bought' has a completed order; nobody else was charged.
    const completed = await db('orders').where({ status: 'completed' }).count({ n: '*' }).first();
    expect(Number(completed!.n), summary).toBe(done);
    expect(await unsettledPayments(db), 'captured payments neither fulfilled nor refunded').toEqual([]);
    expect(await unpaidCompletedOrders(db), 'completed orders without their payment').toEqual([]);
    expect(await doubleSales(db), 'numbers sold twice or not as bought').toEqual([]);
    expect(await miscounted(db), 'tickets_sold against the sold rows').toEqual([]);
    expect(await orphanedHolds(db), 'holds without their cart line').toEqual([]);
    console.info(`SIGTERM during ${CUSTOMERS} checkouts: ${summary}`);
  }, 90_000);
});

/** A POST whose body is held back until `finish()`: a request in flight from the server's view. */
function heldBackPost(url: string, path: string, cookie: string, csrf: string, body: string) {
  const req = http.request(new URL(path, url), {
    method: 'POST',
    headers: {
      Cookie: cookie,
      'X-CSRF-Token': csrf,
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 2));
  const connected = new Promise<void>((resolve) =>
    req.on('socket', (socket) => socket.once('connect', resolve)),
  );
  return {
    connected,
    finish: () => {
      req.end(body.slice(2));
      return answer;
    },
  };
}

/** A GET on a connection of its own (fetch would reuse a kept-alive one): accepted after those before it. */
const freshConnectionStatus = (url: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });

describe.skipIf(engineUnavailable())('a stop signal to the process group, delivered twice', () => {
  let database: TestDatabase | undefined;
  let server: AppProcess | undefined;
  afterAll(async () => {
    await server?.kill();
    await database?.drop();
  });

  it('drains: 30 requests in flight each complete or get the retryable 503, and the exit is 0', async () => {
    database = await createTestDatabase();
    const competitionId = await insertCompetition(database.db);
    server = startAppProcess({
      port: await freePort(),
      databaseUrl: database.databaseUrl,
      dataDir: database.dataDir,
      env: { SHUTDOWN_GRACE_MS: '20000', RECONCILE_INTERVAL_MS: '0', SWEEP_INTERVAL_MS: '0' },
      detached: true,
    });
    expect(await server.ready()).toBe(true);
    const running = server;
    const visitors = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const client = new TestClient(running.url);
        const csrf = await client.fetchCsrfToken();
        return { cookie: client.cookieHeader, csrf };
      }),
    );
    const inFlight = visitors.map((v) =>
      heldBackPost(
        running.url,
        `/api/competitions/${competitionId}/skill-answer`,
        v.cookie,
        v.csrf,
        '{"answer":"365"}',
      ),
    );
    // Every request's headers are in before the signal: each connected and wrote them, and a later
    // request on a fresh connection is answered.
    await Promise.all(inFlight.map((r) => r.connected));
    expect(await freshConnectionStatus(`${running.url}/api/health`)).toBe(200);

    // systemd's default, Ctrl-C, kill -TERM -PGID: the whole group; then again, as a wrapper relays it.
    process.kill(-running.child.pid!, 'SIGTERM');
    // Two signals sent at once arrive as one: the relayed copy comes once the drain has begun,
    // which is when new connections are refused.
    while ((await freshConnectionStatus(`${running.url}/api/health`).catch(() => 'refused')) !== 'refused');
    process.kill(-running.child.pid!, 'SIGTERM');
    const answers = await Promise.all(inFlight.map((r) => r.finish())).catch((err) => {
      throw new Error(
        `a request was cut off (${err.message})\nserver log:\n${running.log.join('').slice(-3000)}`,
      );
    });
    for (const a of answers) {
      if (a.status === 503) expect(Number(a.retryAfter)).toBeGreaterThan(0);
      else expect(a.status).toBe(200);
    }
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(await running.exited, running.log.join('')).toBe(0);
  }, 60_000);
});
