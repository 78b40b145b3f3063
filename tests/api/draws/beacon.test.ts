import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { fixDrawRound } from '../../../api/draws/beacon/fixedRound';
import { drawDueCompetitions } from '../../../api/draws/closingJob';
import type { DrawDeps } from '../../../api/draws/drawable';
import { drawCompetition } from '../../../api/draws/draws';
import { DRAW_FIXED_ORDER_MESSAGE } from '../../../api/orders/cancellation';
import { requiredRound, roundTimeMs } from '../../../contract/beacon';
import { beaconRoundIsValid } from '../../../contract/beaconVerify';
import { computeDraw } from '../../../contract/draw';
import { verifyDraw } from '../../../web/components/draws/verifyDraw';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Draw rule version 2 (docs/draws.md "Version 2"): the beacon round is fixed and published before
// it exists, the draw waits for it, checks its signature, and uses its randomness; the admin sees
// the round and any beacon failure; verify-draw checks the signature and the derivation. The test
// beacon produces a round when a draw asks (on demand); where the round's time matters, the clock
// is moved instead of waited for.

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const cli = (baseUrl: string, competitionId: number) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/verify-draw.ts', '--', String(competitionId)], {
    cwd: ROOT,
    env: { ...process.env, BASE_URL: baseUrl },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );

const depsOf = (server: TestServer): DrawDeps => ({
  db: server.database.db,
  events: server.deps.events,
  logger: pino({ level: 'silent' }),
  mailer: server.deps.mailer,
  beacon: server.deps.drawBeacon,
});

/** A closed competition with sales and no holds: its entries are final. */
async function closedWithSales(db: Knex, numbers = [3, 9, 14]) {
  const id = await insertCompetition(db, { status: 'ended', endDate: Date.now() - 1000, totalTickets: 20 });
  const orderId = await sellTickets(db, id, await insertUser(db), numbers);
  return { id, orderId };
}

/** A server of its own for the enclosing describe block, with a signed-in admin. */
function useServerWithAdmin(env: Record<string, string> = {}) {
  const t = {} as { server: TestServer; admin: TestClient };
  useTestServer(
    async (s) => {
      t.server = s;
      t.admin = (await signedInAdmin(s.url)).client;
    },
    { env },
  );
  return t;
}

describe.skipIf(engineUnavailable())(`draw beacon on ${testEngine()}`, () => {
  describe('a round a minute ahead (DRAW_BEACON_DELAY_SECONDS=60)', () => {
    const t = useServerWithAdmin({ DRAW_BEACON_DELAY_SECONDS: '60', DRAW_AUTO_AFTER_SECONDS: '0' });

    it('Draw now fixes and publishes a round that does not exist yet; nothing can change the entries', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const { id, orderId } = await closedWithSales(db);
      const socket = await connectSocket(server.url);
      try {
        const ack = await watch(socket, id);
        if (!ack.ok) throw new Error(ack.message);
        const updates = collect(socket, 'competition:updated');
        const before = Date.now();
        const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
        expect(res.status, res.text).toBe(202);
        const { round } = res.body as { round: number };
        expect(res.body).toEqual({
          scheduled: true,
          round,
          dueAt: expect.any(String),
          message: expect.stringContaining(`The draw waits for beacon round ${round}, due `),
        });
        const info = server.beacon.beacon.info;
        // The first round produced at least 60 s after the entries became final.
        expect(roundTimeMs(round, info)).toBeGreaterThanOrEqual(before + 60_000);
        expect(roundTimeMs(round - 1, info)).toBeLessThan(Date.now() + 60_000);

        const pub = await admin.get(`/api/competitions/${id}`);
        expect(pub.body.draw).toBeNull();
        expect(pub.body.drawBeacon).toEqual({
          chain: info.hash,
          round,
          dueAt: new Date(roundTimeMs(round, info)).toISOString(),
          publicKey: info.public_key,
          entriesFinalAt: expect.any(String),
          delaySeconds: 60,
          genesisTime: info.genesis_time,
          period: info.period,
        });
        // The round is the one the published moment and delay require.
        const finalAt = Date.parse(pub.body.drawBeacon.entriesFinalAt);
        expect(finalAt).toBeGreaterThanOrEqual(before);
        expect(requiredRound(finalAt, 60_000, info)).toBe(round);
        // Published to watchers at once, while the beacon itself does not have the round yet.
        await waitFor(() => updates.length >= 1, 2000, 'competition:updated');
        expect(updates[0]).toMatchObject({ competitionId: id, drawBeacon: { round } });
        const early = await fetch(`${server.beacon.url}/public/${round}`);
        expect(early.status).toBe(425);

        const detail = await admin.get(`/api/admin/competitions/${id}`);
        expect(detail.body.drawStatus).toMatchObject({ state: 'waiting_for_beacon', beaconRound: round });
        expect(detail.body.drawStatus.message).toContain(
          `Waiting for round ${round} of the local test beacon`,
        );
        const scheduled = (detail.body.auditLog as Array<{ action: string; after: unknown }>).find(
          (e) => e.action === 'competition.draw_scheduled',
        );
        expect(scheduled?.after).toEqual({ beaconRound: round, dueAt: res.body.dueAt });

        // Pressing again changes nothing; the job does not draw before the round.
        const again = await admin.post(`/api/admin/competitions/${id}/draw`, {});
        expect(again.body.round).toBe(round);
        expect(await drawDueCompetitions(depsOf(server), 0)).not.toContain(id);
        expect(await db('draws').where({ competitionId: id })).toEqual([]);

        // The entries are final: an order cannot be cancelled out of the draw any more.
        const cancel = await admin.post(`/api/admin/orders/${orderId}/cancel`, {
          reason: 'Cancelled in a test',
        });
        expect(cancel.status).toBe(409);
        expect(cancel.body.message).toBe(DRAW_FIXED_ORDER_MESSAGE);
        expect(await db('tickets').where({ competitionId: id, status: 'sold' })).toHaveLength(3);
        // Nor added: made active again by mistake, it still takes no holds.
        await db('competitions')
          .where({ id })
          .update({ status: 'active', endDate: Date.now() + 86_400_000 });
        const { client } = await signedInCustomer(server.url);
        await client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
        const held = await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [5] });
        expect(held.status).toBe(409);
        expect(held.body.message).toBe('This competition is closed to new entries.');
      } finally {
        socket.close();
      }
    });
    it("the job draws a scheduled round once the round's time has come, not before, as the admin who pressed Draw now", async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const { id } = await closedWithSales(db, [6, 11]);
      const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
      expect(res.status, res.text).toBe(202);
      const { round, dueAt } = res.body as { round: number; dueAt: string };
      // Still more than the wait limit (10 s) away: not drawn, and the round is not out.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(dueAt) - 10_001 });
      try {
        expect(await drawDueCompetitions(depsOf(server), 0)).not.toContain(id);
        expect((await fetch(`${server.beacon.url}/public/${round}`)).status).toBe(425);
        // The round's time: the job draws on exactly that round, which the beacon then serves.
        vi.setSystemTime(Date.parse(dueAt));
        expect(await drawDueCompetitions(depsOf(server), 0)).toContain(id);
      } finally {
        vi.useRealTimers();
      }
      // Completed in the background, the draw is still the admin's: their Draw now decided it.
      const pressedBy = await db('users').where({ username: 'admin' }).first();
      expect(await db('draws').where({ competitionId: id }).first()).toMatchObject({
        drawnBy: 'admin',
        drawnByUserId: pressedBy.id,
        beaconRound: round,
        beaconRandomness: server.beacon.beacon.round(round)!.randomness,
      });
      const audit = await db('auditLog').where({ entityId: String(id), action: 'competition.draw' });
      expect(audit.map((a) => a.actorUsername)).toEqual(['admin']);
      const detail = await admin.get(`/api/admin/competitions/${id}`);
      expect(detail.body.draw).toMatchObject({ drawnBy: 'admin' });
      expect((await fetch(`${server.beacon.url}/public/${round}`)).status).toBe(200);
    });
  });

  describe('the local beacon on its own port (DRAW_BEACON_URL)', () => {
    const t = useServerWithAdmin();

    it('draws with the verified round; verify-draw checks the signature and the derivation', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const { id } = await closedWithSales(db, [2, 40, 41, 77]);
      const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
      expect(res.status, res.text).toBe(200);
      expect(res.body.version).toBe(2);

      const pub = (await admin.get(`/api/competitions/${id}`)).body;
      const beacon = server.beacon.beacon;
      const round = beacon.round(pub.drawBeacon.round)!;
      expect(pub.drawBeacon).toEqual({
        chain: beacon.info.hash,
        round: round.round,
        dueAt: expect.any(String),
        publicKey: beacon.info.public_key,
        randomness: round.randomness,
        signature: round.signature,
        entriesFinalAt: expect.any(String),
        delaySeconds: 1,
        genesisTime: beacon.info.genesis_time,
        period: beacon.info.period,
      });
      expect(await beaconRoundIsValid(beacon.info.public_key, round)).toBe(true);
      const seed = pub.draw.seed as string;
      const expected = await computeDraw(seed, [2, 40, 41, 77], round.randomness);
      expect(res.body.winningNumber).toBe(expected.winningNumber);
      expect(await db('draws').where({ competitionId: id }).first()).toMatchObject({
        version: 2,
        beaconChain: beacon.info.hash,
        beaconRound: round.round,
        beaconRandomness: round.randomness,
        beaconSignature: round.signature,
        winningNumber: expected.winningNumber,
      });

      const ok = await cli(server.url, id);
      expect(ok.code, ok.stdout).toBe(0);
      expect(ok.stdout).toContain('OK       beacon round signature');
      expect(ok.stdout).toContain('local test beacon: not independent');
      expect(ok.stdout).toContain('VERIFIED');

      // Another round's randomness in its place: the signature no longer verifies.
      const other = beacon.round(round.round - 1)!;
      await db('competitions').where({ id }).update({ drawBeaconRandomness: other.randomness });
      const tampered = await cli(server.url, id);
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain('MISMATCH beacon round signature');
    });

    it('the round follows from the published moment the entries became final: a later real round fails both verifiers', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const numbers = [5, 6, 18, 33, 61];
      const { id } = await closedWithSales(db, numbers);
      const socket = await connectSocket(server.url);
      try {
        expect((await watch(socket, id)).ok).toBe(true);
        const pending = collect(socket, 'draw:pending');
        const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
        expect(res.status, res.text).toBe(200);
        // Published at the time: the moment, the delay and the round that follows from them.
        await waitFor(() => pending.length === 1, 2000, 'draw:pending');
        const pub = (await admin.get(`/api/competitions/${id}`)).body;
        const stored = await db('competitions').where({ id }).first('drawEntriesFinalAt');
        expect(pending[0]).toEqual({
          competitionId: id,
          round: pub.drawBeacon.round,
          expectedAt: pub.drawBeacon.dueAt,
          entriesFinalAt: new Date(Number(stored.drawEntriesFinalAt)).toISOString(),
          delaySeconds: 1,
        });
        expect(pub.drawBeacon.entriesFinalAt).toBe(pending[0]!.entriesFinalAt);
        const info = server.beacon.beacon.info;
        expect(pub.drawBeacon.round).toBe(requiredRound(Number(stored.drawEntriesFinalAt), 1000, info));

        // The honest draw passes both verifiers.
        const browser = (p: typeof pub) =>
          verifyDraw(
            {
              drawCommitment: p.drawCommitment,
              seed: p.draw.seed,
              entriesHash: p.draw.entriesHash,
              winningNumber: p.draw.winningNumber,
              version: p.draw.version,
              beacon: p.drawBeacon,
            },
            numbers,
          );
        expect((await browser(pub)).every((c) => c.status === 'passed')).toBe(true);
        const honest = await cli(server.url, id);
        expect(honest.code, honest.stdout).toBe(0);
        expect(honest.stdout).toContain('OK       beacon round:');

        // An operator with the database puts a later real round in its place (really signed, from
        // the same beacon) and honestly recomputes the winner from it.
        const later = server.beacon.beacon.produce!(pub.drawBeacon.round + 5);
        const redrawn = await computeDraw(pub.draw.seed, numbers, later.randomness);
        const swap = { drawBeaconRound: later.round, drawBeaconRandomness: later.randomness };
        await db('competitions')
          .where({ id })
          .update({
            ...swap,
            drawBeaconSignature: later.signature,
            drawBeaconDueAt: roundTimeMs(later.round, info),
          });
        await db('draws').where({ competitionId: id }).update({
          beaconRound: later.round,
          beaconRandomness: later.randomness,
          beaconSignature: later.signature,
          winningNumber: redrawn.winningNumber,
        });
        const forged = (await admin.get(`/api/competitions/${id}`)).body;
        expect(forged.drawBeacon.round).toBe(later.round);

        const script = await cli(server.url, id);
        expect(script.code, script.stdout).toBe(1);
        // Everything else still agrees: only the round gives it away.
        expect(script.stdout).toContain('OK       beacon round signature');
        expect(script.stdout).toContain('OK       winning number');
        expect(script.stdout).toContain(
          `MISMATCH beacon round: the draw used round ${later.round}, but the round required`,
        );
        expect(script.stdout).toContain('FAILED');

        const checks = await browser(forged);
        expect(checks.filter((c) => c.status === 'failed').map((c) => c.key)).toEqual(['round']);
        expect(checks.find((c) => c.key === 'round')).toMatchObject({
          published: String(later.round),
          computed: String(pub.drawBeacon.round),
        });
      } finally {
        socket.disconnect();
      }
    });

    it("Draw now beaten to its round by the job answers with that draw, made as the admin's, not a 409", async () => {
      const { server } = t;
      const db = server.database.db;
      const { id } = await closedWithSales(db, [4, 12]);
      const real = depsOf(server);
      const admin = await db('users').where({ username: 'admin' }).first();
      // The admin's request gets its round only after the job has drawn on it.
      let jobDone = () => {};
      const jobFinished = new Promise<void>((resolve) => {
        jobDone = resolve;
      });
      const slow: DrawDeps = {
        ...real,
        beacon: {
          ...real.beacon,
          fetchRound: async (round: number) => {
            await jobFinished;
            return real.beacon.fetchRound(round);
          },
        },
      };
      const fixed = await fixDrawRound(real, id);
      const pressing = drawCompetition(slow, id, {
        kind: 'admin',
        actor: { id: admin.id, username: admin.username },
      });
      // The press is remembered before its round comes: the job's draw is then the admin's.
      await waitFor(async () => (await db('competitions').where({ id }).first()).drawRequestedBy === 'admin');
      const job = await drawDueCompetitions(real, 0).finally(() => jobDone());
      const pressed = await pressing;
      expect(job).toContain(id);
      const rows = await db('draws').where({ competitionId: id });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ drawnBy: 'admin', drawnByUserId: admin.id, beaconRound: fixed.round });
      expect(pressed).toMatchObject({ kind: 'drawn', record: { winningNumber: rows[0].winningNumber } });
      const audit = await db('auditLog').where({ entityId: String(id), action: 'competition.draw' });
      expect(audit.map((a) => a.actorUsername)).toEqual(['admin']);
      expect(JSON.parse(audit[0].afterJson)).toMatchObject({
        winningNumber: rows[0].winningNumber,
        entries: 2,
      });

      // A Draw now after the draw is still refused.
      await expect(
        drawCompetition(real, id, { kind: 'admin', actor: { id: admin.id, username: admin.username } }),
      ).rejects.toMatchObject({ status: 409 });
    });

    it('a version-1 draw, made before the beacon, still verifies', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const id = await insertCompetition(db, { status: 'ended', endDate: Date.now() - 1000 });
      await sellTickets(db, id, await insertUser(db), [5, 6, 7]);
      const c = await db('competitions').where({ id }).first();
      const v1 = await computeDraw(c.drawSeed, [5, 6, 7]);
      const drawnAt = Date.now();
      await db('draws').insert({
        competitionId: id,
        seed: c.drawSeed,
        commitment: c.drawCommitment,
        entriesHash: v1.entriesHash,
        entryCount: 3,
        entries: JSON.stringify([5, 6, 7]),
        winningIndex: v1.index,
        winningNumber: v1.winningNumber,
        drawnAt,
        drawnBy: 'auto',
      });
      await db('competitions').where({ id }).update({ drawnAt });
      const pub = (await admin.get(`/api/competitions/${id}`)).body;
      expect(pub.draw.version).toBe(1);
      expect(pub.drawBeacon).toBeNull();
      const ok = await cli(server.url, id);
      expect(ok.code, ok.stdout).toBe(0);
      expect(ok.stdout).toContain('draw rule version 1');
      expect(ok.stdout).not.toContain('beacon round');
    });

    it('a round that cannot be fetched: 503, retried, and the admin sees why', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const { id } = await closedWithSales(db);
      const real = depsOf(server);
      const down: DrawDeps = {
        ...real,
        beacon: {
          ...real.beacon,
          fetchRound: async () => {
            throw new Error('connect ECONNREFUSED 127.0.0.1:9');
          },
        },
      };
      const fixed = await fixDrawRound(real, id);
      await expect(drawCompetition(down, id, { kind: 'auto' })).rejects.toMatchObject({
        status: 503,
        message: expect.stringContaining('The draw beacon could not be used: connect ECONNREFUSED'),
      });
      expect(await db('draws').where({ competitionId: id })).toEqual([]);
      const detail = await admin.get(`/api/admin/competitions/${id}`);
      expect(detail.body.drawStatus).toMatchObject({ state: 'waiting_for_beacon', beaconRound: fixed.round });
      expect(detail.body.drawStatus.beaconError).toMatch(/^Last beacon error \(.+\): connect ECONNREFUSED/);

      // The job's next run, with the beacon back, draws it and clears the error.
      expect(await drawDueCompetitions(real, 0)).toContain(id);
      const after = await db('competitions').where({ id }).first();
      expect(after.drawBeaconError).toBeNull();
      expect(Number(after.drawBeaconRound)).toBe(fixed.round);
    });
  });

  describe('a beacon that cannot be reached at the close', () => {
    // Port 9 (discard): nothing listens there.
    const t = useServerWithAdmin({ DRAW_BEACON_URL: 'http://127.0.0.1:9' });

    it('Draw now answers 503 with the reason, fixes nothing, and the admin sees it', async () => {
      const { server, admin } = t;
      const db = server.database.db;
      const { id } = await closedWithSales(db);
      const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('beacon_unavailable');
      expect(res.body.message).toMatch(/^The draw beacon could not be used: .+\. The draw is retried\.$/);
      const c = await db('competitions').where({ id }).first();
      expect(c.drawBeaconRound).toBeNull();
      expect(c.drawnAt).toBeNull();
      const detail = await admin.get(`/api/admin/competitions/${id}`);
      expect(detail.body.drawStatus.state).toBe('ready');
      expect(detail.body.drawStatus.beaconError).toMatch(/^Last beacon error/);
    });
  });

  describe('zero configuration: the test beacon in-process, under /api/draw-beacon', () => {
    const t = useServerWithAdmin({ DRAW_BEACON_URL: '' });

    it("serves drand's API with a key kept in DATA_DIR, and draws with it", async () => {
      const { server, admin } = t;
      const info = await (await fetch(`${server.url}/api/draw-beacon/info`)).json();
      expect(info).toMatchObject({ schemeID: 'bls-unchained-g1-rfc9380', period: 1 });
      expect(info).toEqual(server.deps.drawBeacon.local?.info);
      expect(fs.existsSync(path.join(server.database.dataDir, 'draw-beacon-key.json'))).toBe(true);
      const first = await (await fetch(`${server.url}/api/draw-beacon/public/1`)).json();
      expect(await beaconRoundIsValid(info.public_key, first)).toBe(true);
      expect((await fetch(`${server.url}/api/draw-beacon/public/99999999999`)).status).toBe(425);

      const { id } = await closedWithSales(server.database.db);
      const res = await admin.post(`/api/admin/competitions/${id}/draw`, {});
      expect(res.status, res.text).toBe(200);
      const pub = (await admin.get(`/api/competitions/${id}`)).body;
      expect(pub.drawBeacon.chain).toBe(info.hash);
      expect(await beaconRoundIsValid(info.public_key, pub.drawBeacon)).toBe(true);
    });
  });
});
