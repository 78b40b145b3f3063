import type { Knex } from 'knex';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AdminLiveEventSchema } from '../../../contract/salesStats';
import { ReadySchema } from '../../../contract/site';
import { buyWithCard, signedInAdmin } from '../../support/admin';
import { customer } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer, useTestServer } from '../../support/testServer';

const TOKEN = 'metrics-token-for-the-tests';

/** The value of one series in Prometheus text, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.skipIf(engineUnavailable())(`operations endpoints on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  const sockets: TestSocket[] = [];
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    {
      // Four holds a minute per session, so the fifth is refused as 'limited'.
      env: { METRICS_TOKEN: TOKEN, HOLD_RATE_PER_SESSION: '4' },
      beforeStop: () => {
        for (const s of sockets) s.disconnect();
      },
    },
  );
  const scrape = (headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }) =>
    new TestClient(server.url).request('GET', '/metrics', undefined, headers);

  it('refuses /metrics without the token (401) or with a wrong one (403)', async () => {
    const none = await scrape({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(none.body.code).toBe('unauthenticated');
    const wrong = await scrape({ Authorization: 'Bearer not-the-token-at-all' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: 'That metrics token is not valid.', code: 'forbidden' });
  });

  it('serves the named series in the Prometheus format after holds and a payment', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    await db('competitions').where({ id: competitionId }).update({ maxTicketsPerUser: 3 });
    const buyer = await customer(server.url, competitionId);
    const rival = await customer(server.url, competitionId);
    const socket = await connectSocket(server.url, buyer.client.cookieHeader);
    sockets.push(socket);

    await buyWithCard(buyer.client, competitionId, [1, 2]);
    const taken = await rival.client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [1] });
    expect(taken.status).toBe(409);
    for (const n of [3, 4]) {
      const res = await rival.client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [n] });
      expect(res.status, res.text).toBe(201);
    }
    const capped = await rival.client.post('/api/cart', {
      competitionId,
      quantity: 2,
      selectedNumbers: [5, 6],
    });
    expect(capped.body.code).toBe('over_cap');
    const limited = await rival.client.post('/api/cart', {
      competitionId,
      quantity: 1,
      selectedNumbers: [9],
    });
    expect(limited.status).toBe(429);
    await new TestClient(server.url).get(`/api/competitions/${competitionId}`);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    expect(sample(text, 'ticket_holds_total{result="ok"}')).toBe(3);
    expect(sample(text, 'ticket_holds_total{result="conflict"}')).toBe(1);
    expect(sample(text, 'ticket_holds_total{result="capped"}')).toBe(1);
    expect(sample(text, 'ticket_holds_total{result="limited"}')).toBe(1);
    expect(sample(text, 'payments_total{provider="sandbox",result="completed"}')).toBe(1);
    expect(sample(text, 'realtime_events_emitted_total{event="tickets:purchased"}')).toBe(1);
    expect(sample(text, 'realtime_events_emitted_total{event="tickets:reserved"}')).toBe(3);
    expect(sample(text, 'socketio_connected_sockets')).toBe(1);
    // The route template labels the request, never its URL.
    expect(
      sample(
        text,
        'http_request_duration_seconds_count{route="/api/competitions/:id",method="GET",status="200"}',
      ),
    ).toBe(1);
    expect(text).not.toContain(`/api/competitions/${competitionId}"`);
    // The taken number and the cap.
    expect(
      sample(text, 'http_request_duration_seconds_count{route="/api/cart",method="POST",status="409"}'),
    ).toBe(2);
    expect(text).toMatch(/^db_pool_connections_in_use \d+$/m);
    expect(text).toMatch(/^db_pool_pending_acquires \d+$/m);
    expect(text).toMatch(/^# TYPE reconciler_settled_total counter$/m);
    // The e-mail outbox: tries by result, and the owed e-mails given up on (none here).
    expect(text).toMatch(/^# TYPE mail_outbox_sends_total counter$/m);
    expect(text).toMatch(/^mail_outbox_failed 0$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
  });

  it('sends the figures of the live tiles to admins as admin:live', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 20 });
    const { client: admin } = await signedInAdmin(server.url);
    const adminSocket = await connectSocket(server.url, admin.cookieHeader);
    sockets.push(adminSocket);
    const live = collect(adminSocket, 'admin:live');
    const holder = await customer(server.url, competitionId);
    const res = await holder.client.post('/api/cart', { competitionId, quantity: 1, selectedNumbers: [5] });
    expect(res.status).toBe(201);
    const heldNow = Number(
      (await db('tickets')
        .where('status', 'reserved')
        .where('expiresAt', '>', Date.now())
        .count({ n: '*' })
        .first())!.n,
    );
    await waitFor(() => live.some((e) => e.heldNow === heldNow), 3000, 'admin:live with the new hold');
    const last = live[live.length - 1]!;
    expect(v.is(AdminLiveEventSchema, last)).toBe(true);
    expect(last.paymentsLastHour).toBe(1);
    expect(last.socketsConnected).toBeGreaterThanOrEqual(2);

    // The dashboard's first read of the same figures, admins only.
    const first = await admin.get('/api/admin/stats/live');
    expect(first.status).toBe(200);
    expect(v.is(AdminLiveEventSchema, first.body)).toBe(true);
    expect(first.body).toMatchObject({
      heldNow,
      paymentsLastHour: 1,
      socketsConnected: last.socketsConnected,
    });
    expect((await holder.client.get('/api/admin/stats/live')).status).toBe(403);
  });

  it('is ready when the database answers and every migration is applied; 503 naming the check otherwise', async () => {
    const ready = await new TestClient(server.url).get('/api/ready');
    expect(ready.status).toBe(200);
    expect(v.is(ReadySchema, ready.body)).toBe(true);
    expect(ready.body).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok' } });

    const last = await db('knex_migrations').orderBy('id', 'desc').first();
    await db('knex_migrations').where({ id: last.id }).delete();
    try {
      const pending = await new TestClient(server.url).get('/api/ready');
      expect(pending.status).toBe(503);
      expect(pending.body).toEqual({
        ready: false,
        checks: { database: 'ok', migrations: 'pending migrations' },
      });
    } finally {
      await db('knex_migrations').insert(last);
    }
  });

  it("always answers with its own X-Request-Id, never a client's", async () => {
    const client = new TestClient(server.url);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const sent = await client.request('GET', '/api/health', undefined, {
      'X-Request-Id': 'proxy-abc.123:7',
    });
    expect(sent.headers.get('x-request-id')).toMatch(uuid);
    expect((await client.get('/api/health')).headers.get('x-request-id')).toMatch(uuid);
    const insane = await client.request('GET', '/api/health', undefined, {
      'X-Request-Id': `a"b${'x'.repeat(200)}`,
    });
    expect(insane.headers.get('x-request-id')).toMatch(uuid);
    // Errors and pages carry one too.
    expect((await client.get('/api/no-such-thing')).headers.get('x-request-id')).toMatch(uuid);
  });
});

describe.skipIf(engineUnavailable())(`/metrics without METRICS_TOKEN on ${testEngine()}`, () => {
  it('is off: 404 saying how to turn it on', async () => {
    const server = await startTestServer();
    try {
      const res = await new TestClient(server.url).get('/metrics');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        message: 'Metrics are off: set METRICS_TOKEN to turn them on.',
        code: 'not_found',
      });
    } finally {
      await server.stop();
    }
  });
});
