import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEndingSoonJob } from '../../../api/accounts/marketing/campaigns';
import { isPrivateAddress, isPublicEndpoint } from '../../../api/accounts/push/endpoints';
import { PRIVATE_ENDPOINT_MESSAGE } from '../../../api/accounts/push/subscriptions';
import { loadVapidKeys } from '../../../api/accounts/push/vapidKeys';
import type { PushPayload } from '../../../contract/push';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import {
  browserSubscription,
  createLocalPushService,
  type ReceivedPush,
  vapidOf,
} from '../../support/pushService';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Web push (docs/product.md#web-push): the VAPID key, subscriptions (signed-in customers, the SSRF
// rule), and real encrypted pushes to a local HTTPS push service, decrypted here with the
// subscription's keys (RFC 8291) and checked.

const DAY = 86_400_000;
const HOUR = 3_600_000;
const del = (c: TestClient, path: string, body: unknown) => c.request('DELETE', path, body);

describe.skipIf(engineUnavailable())(`web push on ${testEngine()}`, () => {
  const pushService = createLocalPushService();
  let server: TestServer;
  let db: Knex;
  let seq = 0;
  beforeAll(() => pushService.start());
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0' }, pushAgent: () => pushService.agent },
  );
  afterAll(() => pushService.close());

  /** A signed-in customer with a browser subscribed on the local push service. */
  async function subscribed(name: string, status = 201) {
    const { client, user } = await signedInCustomer(server.url);
    const browser = browserSubscription(pushService.endpoint(`${name}${++seq}`, status));
    const res = await client.post('/api/push/subscriptions', browser.json);
    expect(res.status, res.text).toBe(201);
    return { client, user, browser, name: `${name}${seq}` };
  }

  /** Checks the push service's request and answers the decrypted payload. */
  async function payloadOf(push: ReceivedPush, browser: ReturnType<typeof browserSubscription>) {
    const { publicKey } = (await new TestClient(server.url).get('/api/push/public-key')).body;
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers['content-type']).toBe('application/octet-stream');
    expect(Number(push.headers.ttl)).toBeGreaterThan(0);
    const vapid = vapidOf(String(push.headers.authorization));
    expect(vapid.valid).toBe(true);
    expect(vapid.publicKey).toBe(publicKey);
    expect(vapid.header.alg).toBe('ES256');
    expect(vapid.claims.aud).toBe(new URL(browser.json.endpoint).origin);
    expect(vapid.claims.sub).toMatch(/^mailto:/);
    return JSON.parse(browser.decrypt(push.body)) as PushPayload;
  }

  it('GET /api/push/public-key answers the VAPID key made on first start and stored', async () => {
    const res = await new TestClient(server.url).get('/api/push/public-key');
    expect(res.status).toBe(200);
    expect(res.body.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const stored = await db('pushKeys').first('publicKey', 'privateKeySealed');
    expect(stored.publicKey).toBe(res.body.publicKey);
    // The private key is sealed at rest, and the same pair is read back by every later start.
    expect(stored.privateKeySealed).toMatch(/^v1\./);
    const again = await loadVapidKeys(db, server.deps.config.sessionSecret, undefined);
    expect(again.publicKey).toBe(res.body.publicKey);
    // Configured keys win over the stored ones.
    const configured = { publicKey: 'p'.repeat(87), privateKey: 'k'.repeat(43) };
    expect(await loadVapidKeys(db, 'x'.repeat(32), configured)).toEqual(configured);
  });

  it('subscriptions are for signed-in customers only, with the CSRF token', async () => {
    const guest = new TestClient(server.url);
    await guest.fetchCsrfToken();
    const browser = browserSubscription(pushService.endpoint('guest'));
    expect((await guest.post('/api/push/subscriptions', browser.json)).status).toBe(401);
    expect((await del(guest, '/api/push/subscriptions', { endpoint: browser.json.endpoint })).status).toBe(
      401,
    );
    const { client } = await signedInCustomer(server.url);
    client.csrfToken = undefined;
    expect((await client.post('/api/push/subscriptions', browser.json)).status).toBe(403);
    expect(await db('pushSubscriptions').where({ endpoint: browser.json.endpoint })).toHaveLength(0);
  });

  it('POST stores the subscription (201, once per endpoint), DELETE removes it; a bad shape is 400', async () => {
    const { client, user, browser } = await subscribed('store');
    expect((await client.post('/api/push/subscriptions', browser.json)).status).toBe(201);
    const rows = await db('pushSubscriptions').where({ userId: user.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: browser.json.endpoint, ...browser.json.keys });

    const good = browser.json;
    const bad: unknown[] = [
      {},
      { endpoint: good.endpoint },
      { ...good, endpoint: 'not a url' },
      { ...good, endpoint: good.endpoint.replace('https:', 'http:') },
      { ...good, keys: { ...good.keys, p256dh: 'short' } },
      { ...good, keys: { ...good.keys, auth: `${good.keys.auth}==` } },
    ];
    for (const body of bad) {
      const res = await client.post('/api/push/subscriptions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(await db('pushSubscriptions').where({ userId: user.id })).toHaveLength(1);

    // Another customer cannot remove it; its owner can.
    const other = await signedInCustomer(server.url);
    expect((await del(other.client, '/api/push/subscriptions', { endpoint: good.endpoint })).status).toBe(
      200,
    );
    expect(await db('pushSubscriptions').where({ userId: user.id })).toHaveLength(1);
    const gone = await del(client, '/api/push/subscriptions', { endpoint: good.endpoint });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({ subscribed: false });
    expect(await db('pushSubscriptions').where({ userId: user.id })).toHaveLength(0);
  });

  it('in production, endpoints on loopback or private addresses are refused (SSRF)', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const rule = server.deps.config.push;
    rule.allowPrivateEndpoints = false;
    try {
      for (const host of [
        '127.0.0.1',
        'localhost',
        '10.1.2.3',
        '192.168.0.9',
        '172.20.0.1',
        '169.254.169.254',
        '[::1]',
        '[::ffff:127.0.0.1]',
        '[fd00::1]',
      ]) {
        const res = await client.post(
          '/api/push/subscriptions',
          browserSubscription(`https://${host}/push/x`).json,
        );
        expect(res.status, host).toBe(400);
        expect(res.body.message).toBe(PRIVATE_ENDPOINT_MESSAGE);
      }
      expect(await db('pushSubscriptions').where({ userId: user.id })).toHaveLength(0);
    } finally {
      rule.allowPrivateEndpoints = true;
    }
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    // A name is judged by what it resolves to.
    expect(await isPublicEndpoint('https://push.example/x', async () => ['203.0.113.7'])).toBe(true);
    expect(await isPublicEndpoint('https://rebind.example/x', async () => ['203.0.113.7', '127.0.0.1'])).toBe(
      false,
    );
  });

  it("pushes the draw result to entrants and 'You won' to the winner, never to one on a break", async () => {
    const id = await insertCompetition(db, { title: 'Harbour Yacht Day', totalTickets: 4 });
    const onBreak = await subscribed('break');
    await db('users')
      .where({ id: onBreak.user.id })
      .update({ selfExcludedUntil: Date.now() + 30 * DAY });
    const entrants = [await subscribed('ann'), await subscribed('bob'), await subscribed('cat')];
    for (const [i, e] of [onBreak, ...entrants].entries()) await sellTickets(db, id, e.user.id, [i + 1]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    const admin = (await signedInAdmin(server.url)).client;
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    const { winningNumber, winnerUserId } = await db('draws').where({ competitionId: id }).first();

    const payloads = await Promise.all(
      entrants.map(async (e) => payloadOf(await pushService.next(e.name), e.browser)),
    );
    for (const [i, e] of entrants.entries()) {
      const won = Number(winnerUserId) === e.user.id;
      expect(payloads[i]).toEqual({
        kind: won ? 'won' : 'draw-result',
        title: won ? 'You won!' : 'Drawn: Harbour Yacht Day',
        body: won
          ? expect.stringMatching(
              new RegExp(`^You won .*Harbour Yacht Day.* with ticket #${winningNumber}\\.$`),
            )
          : `The winning ticket is #${winningNumber}. See the result.`,
        url: `/competitions/${id}`,
        competitionId: id,
      });
    }
    expect(pushService.received.filter((p) => p.path === `/push/${onBreak.name}`)).toEqual([]);
    expect(
      pushService.received.filter((p) => entrants.some((e) => p.path === `/push/${e.name}`)),
    ).toHaveLength(3);
  });

  it("pushes 'You won' to an instant win's winner when the sale commits", async () => {
    const admin = (await signedInAdmin(server.url)).client;
    const created = await admin.post('/api/admin/competitions', {
      title: 'Instant Cash Splash',
      ticketPrice: 1,
      totalTickets: 50,
      endDate: new Date(Date.now() + 7 * DAY).toISOString(),
      details: { category: 'Cash' },
      instantWins: [{ title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [7] }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const { client } = await customer(server.url, id);
    const browser = browserSubscription(pushService.endpoint(`instant${++seq}`));
    expect((await client.post('/api/push/subscriptions', browser.json)).status).toBe(201);
    await hold(client, id, [7]);
    const order = await startCheckout(client);
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: order.clientSecret,
      // A debit card: instant-win competitions take no credit cards.
      ...card({ cardNumber: '4000 0566 5566 5556' }),
    });
    expect(paid.status, paid.text).toBe(200);
    expect(await payloadOf(await pushService.next(`instant${seq}`), browser)).toEqual({
      kind: 'won',
      title: 'You won!',
      body: 'Ticket #7 in Instant Cash Splash won £5 site credit.',
      url: `/competitions/${id}`,
      competitionId: id,
    });
  });

  it('ending soon goes to opted-in entrants and watchers only; a 404 or 410 removes the subscription', async () => {
    const now = Date.now();
    const id = await insertCompetition(db, { title: 'Ending Rolex', endDate: now + 20 * HOUR });
    await db('users').update({ marketingEmails: false });
    const optIn = (userId: number) =>
      db('users').where({ id: userId }).update({ marketingEmails: true, emailVerifiedAt: now });
    const noConsent = await subscribed('noconsent');
    const bystander = await subscribed('bystander');
    const watcher = await subscribed('gone', 410);
    const entrant = await subscribed('unknown', 404);
    // Each one's second browser, subscribed after the gone one: it is sent to after it.
    const secondBrowser = async (who: typeof entrant, name: string) => {
      const browser = browserSubscription(pushService.endpoint(name));
      expect((await who.client.post('/api/push/subscriptions', browser.json)).status).toBe(201);
      return { browser, name };
    };
    const watcherLive = await secondBrowser(watcher, `watcher${++seq}`);
    const entrantLive = await secondBrowser(entrant, `entrant${++seq}`);
    for (const p of [noConsent, entrant]) await sellTickets(db, id, p.user.id, [(p.user.id % 90) + 1]);
    await db('watchlist').insert({ userId: watcher.user.id, competitionId: id, createdAt: now });
    for (const p of [bystander, watcher, entrant]) await optIn(p.user.id);

    await runEndingSoonJob(server.deps, now);
    const [toEntrant, toWatcher] = await Promise.all([
      pushService.next(entrantLive.name).then((p) => payloadOf(p, entrantLive.browser)),
      pushService.next(watcherLive.name).then((p) => payloadOf(p, watcherLive.browser)),
    ]);
    const expected = {
      kind: 'ending-soon',
      title: 'Ending soon: Ending Rolex',
      body: 'Last chance to enter before it closes.',
      url: `/competitions/${id}`,
      competitionId: id,
    };
    expect(toEntrant).toEqual(expected);
    expect(toWatcher).toEqual(expected);
    for (const who of [watcher, entrant]) {
      expect(pushService.received.filter((p) => p.path === `/push/${who.name}`)).toHaveLength(1);
      expect(await db('pushSubscriptions').where({ endpoint: who.browser.json.endpoint })).toHaveLength(0);
    }
    for (const live of [watcherLive, entrantLive])
      expect(await db('pushSubscriptions').where({ endpoint: live.browser.json.endpoint })).toHaveLength(1);
    for (const p of [noConsent, bystander])
      expect(pushService.received.filter((r) => r.path === `/push/${p.name}`)).toEqual([]);
  });
});
