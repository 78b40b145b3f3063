import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDueCompetitions, drawDueCompetitions } from '../../../api/draws/closingJob';
import { ALREADY_DRAWN, type DrawDeps, NO_SALES } from '../../../api/draws/drawable';
import { computeDraw } from '../../../contract/draw';
import { buyWithCard, patch, signedInAdmin, signedInCustomer } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer, useTestServer } from '../../support/testServer';

// Draws (docs/draws.md): commitment, closing, exactly-once draws, broadcast, winners, verify-draw.

const run = promisify(execFile);
const sha256Hex = (hex: string) => createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
const ROOT = path.resolve(__dirname, '../../..');

describe.skipIf(engineUnavailable())(`draws on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let deps: DrawDeps;
  beforeAll(async () => {
    server = await startTestServer({ DRAW_AUTO_AFTER_SECONDS: '0' });
    db = server.database.db;
    admin = (await signedInAdmin(server.url)).client;
    deps = {
      db,
      events: server.deps.events,
      logger: pino({ level: 'silent' }),
      mailer: server.deps.mailer,
      beacon: server.deps.drawBeacon,
    };
  });
  afterAll(async () => {
    await server?.stop();
  });

  const seedOf = async (id: number) =>
    (await db('competitions').where({ id }).first('drawSeed')).drawSeed as string;
  const drawsOf = (id: number) => db('draws').where({ competitionId: id });
  /** Moves a competition's end date into the past (as if time had passed). */
  const endNow = (id: number) =>
    db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
  const drawNow = (id: number) => admin.post(`/api/admin/competitions/${id}/draw`, {});

  it('commits to a secret seed at creation and never shows the seed before the draw', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Committed prize',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'cash' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const seed = await seedOf(id);
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const detail = await admin.get(`/api/competitions/${id}`);
    expect(detail.body.drawCommitment).toBe(sha256Hex(seed));
    expect(detail.body.draw).toBeNull();

    const { client } = await signedInCustomer(server.url);
    await buyWithCard(client, id, [4]);
    const socket = await connectSocket(server.url);
    try {
      const ack = await watch(socket, id);
      const responses = [
        JSON.stringify(ack),
        (await admin.get(`/api/competitions/${id}`)).text,
        (await admin.get('/api/competitions')).text,
        (await admin.get(`/api/competitions/${id}/entries`)).text,
        (await admin.get('/api/admin/competitions')).text,
        (await admin.get(`/api/admin/competitions/${id}`)).text,
        (await admin.get(`/api/admin/competitions/${id}/export-csv`)).text,
        (await client.get('/api/user-entries')).text,
      ];
      for (const text of responses) expect(text).not.toContain(seed);
      expect((await admin.get(`/api/competitions/${id}/draw-entries`)).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it('closes at the end date: new holds are refused, the job ends it once and tells watchers', async () => {
    const id = await insertCompetition(db, { totalTickets: 10 });
    const { client } = await customer(server.url, id);
    await endNow(id);
    const refused = await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [1] });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This competition is closed to new entries.');
    expect(await db('tickets').where({ competitionId: id })).toEqual([]);

    const socket = await connectSocket(server.url);
    try {
      const ack = await watch(socket, id);
      if (!ack.ok) throw new Error(ack.message);
      const updates = collect(socket, 'competition:updated');
      // What the jobs publish (after COMMIT, before they return): one event for the socket.
      const published: number[] = [];
      const unsubscribe = server.deps.events.subscribe('competition.updated', (e) => {
        if (e.competition.id === id) published.push(e.version);
      });
      // Three processes' jobs at once: one close, one event.
      const results = await Promise.all([1, 2, 3].map(() => closeDueCompetitions(deps))).finally(unsubscribe);
      expect(results.flat().filter((x) => x === id)).toHaveLength(1);
      expect(published).toEqual([ack.snapshot.version + 1]);
      await waitFor(() => updates.length >= 1, 2000, 'competition:updated');
      await barrier(socket);
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({
        competitionId: id,
        status: 'ended',
        version: ack.snapshot.version + 1,
      });
      expect((await db('competitions').where({ id }).first()).status).toBe('ended');
    } finally {
      socket.close();
    }
  });

  it('a payment started before the close completes; Draw now waits for it, then draws', async () => {
    const id = await insertCompetition(db, { totalTickets: 10 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [2, 5]);
    const intent = await startCheckout(client);
    // The close comes just after the payment started.
    await new Promise((r) => setTimeout(r, 5));
    await db('competitions').where({ id }).update({ endDate: Date.now() });
    await closeDueCompetitions(deps);

    const early = await drawNow(id);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/can still be paid for until/);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.drawStatus.state).toBe('awaiting_payments');

    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card(),
    });
    expect(paid.status, paid.text).toBe(200);
    expect((await db('orders').where({ id: intent.orderId }).first()).status).toBe('completed');

    const drawn = await drawNow(id);
    expect(drawn.status, drawn.text).toBe(200);
    expect([2, 5]).toContain(drawn.body.winningNumber);
  });

  it('refuses a payment started after the close was decided (drawn competition): refunded', async () => {
    const id = await insertCompetition(db, { totalTickets: 10 });
    const buyer = await insertUser(db);
    await sellTickets(db, id, buyer, [9]);
    const { client } = await customer(server.url, id);
    await hold(client, id, [3]);
    const intent = await startCheckout(client);
    await endNow(id);
    // The pending payment's holds would normally make Draw now wait: let them run out first.
    await db('tickets')
      .where({ competitionId: id, status: 'reserved' })
      .update({ expiresAt: Date.now() - 1 });
    expect((await drawNow(id)).status).toBe(200);
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card(),
    });
    expect(paid.status).toBe(409);
    expect((await db('orders').where({ id: intent.orderId }).first()).status).toBe('cancelled');
    expect(await db('tickets').where({ competitionId: id, status: 'sold' })).toHaveLength(1);
    // Even made active again by mistake, a drawn competition takes no new holds.
    await db('competitions')
      .where({ id })
      .update({ status: 'active', endDate: Date.now() + 86_400_000 });
    const again = await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [4] });
    expect(again.status).toBe(409);
  });

  it("My Entries carries each competition's closing time and, once drawn, the winning number", async () => {
    const endDate = Date.now() + 3_600_000;
    const id = await insertCompetition(db, { title: 'Entries prize', totalTickets: 4, endDate });
    const ann = await signedInCustomer(server.url);
    const bob = await signedInCustomer(server.url);
    await buyWithCard(ann.client, id, [1, 2]);
    await buyWithCard(bob.client, id, [3]);
    const before = await ann.client.get('/api/user-entries');
    expect(before.status).toBe(200);
    expect(before.body[0].competition).toMatchObject({
      endDate: new Date(endDate).toISOString(),
      autoWin: false,
      status: 'active',
      draw: null,
    });

    await endNow(id);
    expect((await drawNow(id)).status).toBe(200);
    const row = await drawsOf(id).first();
    for (const { client } of [ann, bob]) {
      const after = await client.get('/api/user-entries');
      expect(after.body[0].competition.status).toBe('ended');
      expect(after.body[0].competition.draw).toEqual({
        winningNumber: row.winningNumber,
        drawnAt: new Date(Number(row.drawnAt)).toISOString(),
        // A single prize: the competition's title (docs/draws.md "Several prizes").
        prizes: [{ position: 1, title: after.body[0].competition.title, winningNumber: row.winningNumber }],
      });
    }
  });

  it('Draw now: before the close 409; then once, broadcast to watchers, verifiable; a second is 409', async () => {
    const id = await insertCompetition(db, { title: 'Live draw car', totalTickets: 30 });
    const sarah = await signedInCustomer(server.url, { firstName: 'Sarah', lastName: 'thompson' });
    const tom = await signedInCustomer(server.url, { firstName: 'Tom', lastName: 'Baker' });
    await buyWithCard(sarah.client, id, [3, 17, 29]);
    await buyWithCard(tom.client, id, [8, 21]);

    const open = await drawNow(id);
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(/still open until/);

    await endNow(id);
    const socket = await connectSocket(server.url);
    try {
      const ack = await watch(socket, id);
      if (!ack.ok) throw new Error(ack.message);
      const started = collect(socket, 'draw:started');
      const results = collect(socket, 'draw:result');
      const updates = collect(socket, 'competition:updated');
      // Several admins (or processes) pressing at once: one draw.
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => drawNow(id)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.message).toBe(ALREADY_DRAWN);
      const draw = answers.find((a) => a.status === 200)!.body;

      await waitFor(() => results.length >= 1 && updates.length >= 1, 2000, 'draw:result');
      // Every press has answered, and a draw publishes draw:started and draw:result before its
      // answer: a second one would be here after a round trip.
      await barrier(socket);
      expect(started).toEqual([{ competitionId: id }]);
      expect(results).toHaveLength(1);
      const seed = await seedOf(id);
      const fixedRound = (await db('competitions').where({ id }).first()).drawBeaconRound;
      expect(results[0]).toEqual({
        competitionId: id,
        winningNumber: draw.winningNumber,
        winnerName: draw.winnerName,
        seed,
        entriesHash: draw.entriesHash,
        version: 2,
        beaconRound: Number(fixedRound),
        beaconRandomness: expect.stringMatching(/^[0-9a-f]{64}$/),
        prizes: [
          {
            position: 1,
            title: 'Live draw car',
            winningNumber: draw.winningNumber,
            winnerName: draw.winnerName,
          },
        ],
        drawnAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(updates.at(-1)).toMatchObject({ competitionId: id, status: 'ended', draw: { seed } });

      // Version 2: the seed, the entries and the published beacon round's randomness.
      const pub = await admin.get(`/api/competitions/${id}`);
      const expected = await computeDraw(seed, [3, 8, 17, 21, 29], pub.body.drawBeacon.randomness);
      expect(draw.winningNumber).toBe(expected.winningNumber);
      expect(draw.entriesHash).toBe(expected.entriesHash);
      expect(draw.winnerName).toBe([3, 17, 29].includes(draw.winningNumber) ? 'Sarah T.' : 'Tom B.');

      expect(pub.body.drawCommitment).toBe(sha256Hex(pub.body.draw.seed));
      expect(pub.body.draw).toEqual({
        version: 2,
        seed,
        entriesHash: expected.entriesHash,
        winningNumber: expected.winningNumber,
        winnerName: draw.winnerName,
        winnerTown: null,
        drawnAt: expect.any(String),
        prizes: [
          {
            position: 1,
            title: 'Live draw car',
            winningNumber: expected.winningNumber,
            winnerName: draw.winnerName,
          },
        ],
      });
      const entries = await admin.get(`/api/competitions/${id}/draw-entries`);
      expect(entries.body).toEqual({
        competitionId: id,
        entriesHash: expected.entriesHash,
        numbers: [3, 8, 17, 21, 29],
      });

      const row = await drawsOf(id).first();
      const winner = [3, 17, 29].includes(draw.winningNumber) ? sarah.user : tom.user;
      expect(row).toMatchObject({
        drawnBy: 'admin',
        winnerUserId: winner.id,
        winningNumber: draw.winningNumber,
      });
      expect(Number(row.winnerOrderId)).toBeGreaterThan(0);

      // The winner's e-mail, the public winners list, the admin's detail and audit trail.
      await waitFor(() => Boolean(fs.readdirSync(path.join(server.database.dataDir, 'outbox')).length), 2000);
      const mails = fs
        .readdirSync(path.join(server.database.dataDir, 'outbox'))
        .map((f) => fs.readFileSync(path.join(server.database.dataDir, 'outbox', f), 'utf8'))
        .filter((t) => t.includes('Live draw car') && t.includes('Congratulations'));
      expect(mails).toHaveLength(1);
      expect(mails[0]).toContain(winner.email);

      const winners = await admin.get('/api/winners');
      expect(winners.body).toContainEqual({
        competitionId: id,
        title: 'Live draw car',
        image: '/images/competitions/other.svg',
        winnerName: draw.winnerName,
        winningNumber: draw.winningNumber,
        drawnAt: draw.drawnAt,
        url: `/competitions/${id}`,
        prizes: [
          {
            position: 1,
            title: 'Live draw car',
            winningNumber: draw.winningNumber,
            winnerName: draw.winnerName,
          },
        ],
      });
      const detail = await admin.get(`/api/admin/competitions/${id}`);
      expect(detail.body.drawStatus.state).toBe('drawn');
      expect(detail.body.draw).toMatchObject({ winningNumber: draw.winningNumber, drawnBy: 'admin' });
      expect(detail.body.auditLog.map((e: { action: string }) => e.action)).toContain('competition.draw');
    } finally {
      socket.close();
    }
  });

  it('admin winners: list and mark a prize delivered (audit-logged); customers are refused', async () => {
    const id = await insertCompetition(db, { title: 'Delivered prize', status: 'ended' });
    const buyer = await insertUser(db, { firstName: 'Ann', lastName: 'Lee' });
    await sellTickets(db, id, buyer, [11]);
    expect((await drawNow(id)).status).toBe(200);
    const list = await admin.get('/api/admin/winners');
    expect(list.body.find((w: { competitionId: number }) => w.competitionId === id)).toMatchObject({
      winnerName: 'Ann L.',
      winningNumber: 11,
      winner: { userId: buyer, firstName: 'Ann', lastName: 'Lee' },
      prizeDeliveredAt: null,
    });
    // A prize of no stated value needs the winner's age check first (ageChecks.test.ts).
    expect((await admin.post(`/api/admin/users/${buyer}/age-verification`, {})).status).toBe(200);
    const marked = await patch(admin, `/api/admin/winners/${id}`, { prizeDelivered: true });
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body.prizeDeliveredAt).toEqual(expect.any(String));
    const bad = await patch(admin, `/api/admin/winners/${id}`, { prizeDelivered: 'yes' });
    expect(bad.status).toBe(400);
    expect((await patch(admin, '/api/admin/winners/999999', { prizeDelivered: true })).status).toBe(404);
    const trail = (await admin.get(`/api/admin/competitions/${id}`)).body.auditLog as Array<{
      action: string;
    }>;
    expect(trail.map((e) => e.action)).toContain('competition.prize_delivered');
    const { client } = await signedInCustomer(server.url);
    expect((await client.get('/api/admin/winners')).status).toBe(403);
    expect((await client.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(403);
  });

  it('zero sales: no draw, and the admin is told why', async () => {
    const id = await insertCompetition(db, { status: 'ended' });
    const res = await drawNow(id);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(NO_SALES);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.drawStatus).toEqual({ state: 'no_sales', message: NO_SALES });
    await drawDueCompetitions(deps, 1, Date.now() + 10_000);
    expect(await drawsOf(id)).toEqual([]);
    expect((await drawNow(999_999)).status).toBe(404);
  });

  it("cancelled orders' tickets are not in the draw", async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const a = await insertUser(db);
    const b = await insertUser(db);
    await sellTickets(db, id, a, [1, 2]);
    const cancelledOrder = await sellTickets(db, id, b, [5, 6, 7]);
    const cancel = await admin.post(`/api/admin/orders/${cancelledOrder}/cancel`, {
      reason: 'Cancelled in a test',
    });
    expect(cancel.status, cancel.text).toBe(200);
    await endNow(id);
    const res = await drawNow(id);
    expect(res.status, res.text).toBe(200);
    expect((await admin.get(`/api/competitions/${id}/draw-entries`)).body.numbers).toEqual([1, 2]);
    expect([1, 2]).toContain(res.body.winningNumber);
  });

  it('draws a live-draw competition automatically DRAW_AUTO_AFTER_SECONDS after its end date', async () => {
    const id = await insertCompetition(db, { endDate: Date.now() - 120_000, status: 'ended' });
    await sellTickets(db, id, await insertUser(db), [4, 6]);
    expect(await drawDueCompetitions(deps, 0)).not.toContain(id); // 0 = never
    expect(await drawDueCompetitions(deps, 600)).not.toContain(id); // not yet due
    expect(await drawDueCompetitions(deps, 60)).toContain(id);
    expect(await drawsOf(id).first()).toMatchObject({ drawnBy: 'auto', drawnByUserId: null });
  });

  it('an auto-win competition draws itself the moment its last ticket sells', async () => {
    const id = await insertCompetition(db, { autoWin: true, totalTickets: 3 });
    const socket = await connectSocket(server.url);
    try {
      const ack = await watch(socket, id);
      if (!ack.ok) throw new Error(ack.message);
      const results = collect(socket, 'draw:result');
      const { client } = await signedInCustomer(server.url, { firstName: 'Zoe', lastName: 'Quinn' });
      await buyWithCard(client, id, [1, 2]);
      expect(await drawsOf(id)).toEqual([]);
      await buyWithCard(client, id, [3]);
      // The draw follows the beacon round fixed at the sell-out (produced at once on demand).
      await waitFor(() => results.length === 1, 10_000, 'draw:result');
      expect(results[0]).toMatchObject({ competitionId: id, winnerName: 'Zoe Q.' });
      expect((await db('competitions').where({ id }).first()).status).toBe('ended');
      expect(await drawsOf(id)).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('npm run verify-draw agrees with the server, and catches a tampered result', async () => {
    const id = await insertCompetition(db, { status: 'ended' });
    await sellTickets(db, id, await insertUser(db), [2, 40, 41, 77]);
    expect((await drawNow(id)).status).toBe(200);
    const cli = (competitionId: number) =>
      run(process.execPath, ['--import', 'tsx', 'scripts/verify-draw.ts', '--', String(competitionId)], {
        cwd: ROOT,
        env: { ...process.env, BASE_URL: server.url },
      });
    const ok = await cli(id);
    expect(ok.stdout).toContain('VERIFIED');

    const row = await drawsOf(id).first();
    const other = [2, 40, 41, 77].find((n) => n !== Number(row.winningNumber))!;
    await drawsOf(id).update({ winningNumber: other });
    const tampered = await cli(id).then(
      () => ({ code: 0, stdout: '' }),
      (err: { code: number; stdout: string }) => err,
    );
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('MISMATCH winning number');
  });
});

describe.skipIf(engineUnavailable() || testEngine() !== 'mysql')('draws under load on mysql', () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('an auto-win competition bought out by many concurrent buyers is drawn exactly once', async () => {
    const total = 16;
    const id = await insertCompetition(db, { autoWin: true, totalTickets: total });
    const buyers = await Promise.all(Array.from({ length: total }, () => customer(server.url, id)));
    const intents: Array<{ clientSecret: string | null }> = [];
    for (const [i, b] of buyers.entries()) {
      await hold(b.client, id, [i + 1]);
      intents.push(await startCheckout(b.client));
    }
    // A sale that sells out draws in the background once the beacon's round is out
    // (drawAfterSellOut): each of those runs is followed here, to wait for all of them.
    const background: Array<Promise<unknown>> = [];
    const beacon = server.deps.drawBeacon;
    const waitForRound = beacon.waitForRound;
    beacon.waitForRound = (round, dueAt) => {
      const waiting = waitForRound.call(beacon, round, dueAt);
      return {
        // biome-ignore lint/suspicious/noThenProperty: a promise that records what follows it
        then(onReady, onFailed) {
          const next = waiting.then(onReady, onFailed);
          background.push(next);
          return next;
        },
      } as Promise<void>;
    };
    const socket = await connectSocket(server.url);
    try {
      const ack = await watch(socket, id);
      if (!ack.ok) throw new Error(ack.message);
      const results = collect(socket, 'draw:result');
      const started = collect(socket, 'draw:started');
      const deps: DrawDeps = {
        db,
        events: server.deps.events,
        logger: pino({ level: 'silent' }),
        mailer: server.deps.mailer,
        beacon: server.deps.drawBeacon,
      };
      // Every payment at once (each may be the last), with two other processes' jobs racing.
      const paid = await Promise.all([
        ...buyers.map((b, i) =>
          b.client.post('/api/payments/sandbox/confirm', {
            clientSecret: intents[i]!.clientSecret,
            ...card(),
          }),
        ),
        drawDueCompetitions(deps, 0).then(() => ({ status: 200 })),
        drawDueCompetitions(deps, 0).then(() => ({ status: 200 })),
      ]);
      expect(paid.map((p) => p.status)).toEqual(Array(total + 2).fill(200));
      await waitFor(() => results.length >= 1, 10_000, 'draw:result');
      await drawDueCompetitions(deps, 0);
      // Every background draw has run (a second one finds it drawn), and each draw publishes its
      // events before it ends: after a round trip, a second draw's events would be here.
      await Promise.allSettled(background);
      await barrier(socket);
      expect(results).toHaveLength(1);
      expect(started).toHaveLength(1);
      expect(await db('draws').where({ competitionId: id })).toHaveLength(1);
      const c = await db('competitions').where({ id }).first();
      expect(c).toMatchObject({ status: 'ended', ticketsSold: total });
      expect(c.drawnAt).not.toBeNull();
      const expected = await computeDraw(
        c.drawSeed,
        Array.from({ length: total }, (_, i) => i + 1),
        c.drawBeaconRandomness,
      );
      expect(results[0]!.winningNumber).toBe(expected.winningNumber);
    } finally {
      beacon.waitForRound = waitForRound;
      socket.close();
    }
  });
});
