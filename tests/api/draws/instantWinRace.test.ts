import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { verifyInstantWinReveal } from '../../../contract/instantWins';
import { ledgerMismatches, put, signedInAdmin } from '../../support/admin';
import { makeCustomers, signIn } from '../../support/fastCustomers';
import { connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// 200 buyers at once on a competition with 20 instant wins (docs/draws.md#instant-wins): each prize
// won exactly once, credit on the ledger, and the numbers still to be won never sent to anyone
// before the close; after it, the reveal matches the commitment and one changed byte does not.

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const BUYERS = 200;
const PRIZE_PENCE = 250;
/** Won during the race: buyer i buys number i + 1. */
const WON = Array.from({ length: 14 }, (_, i) => (i + 1) * 10);
/** Never bought: they must not appear anywhere before the close. */
const UNWON = [51_001, 52_002, 53_003, 54_004, 55_005, 56_006];

/** JSON text of a frame or body without the grid bitmaps (base64 can spell anything). */
const textOf = (value: unknown) =>
  JSON.stringify(value, (key, v) =>
    (key === 'sold' || key === 'reserved') && typeof v === 'string' ? '' : v,
  );

const leaks = (texts: readonly string[]) =>
  UNWON.filter((n) => texts.some((t) => new RegExp(`(^|[^0-9])${n}([^0-9]|$)`).test(t)));

describe.skipIf(engineUnavailable())(`200 buyers racing for instant wins on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  // Hundreds of sessions stand for hundreds of people at as many addresses (signing in at once).
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { HOLD_RATE_PER_ADDRESS: '100000', LOGIN_LIMIT_PER_ADDRESS: '100000' } },
  );

  it('each prize is won once, the ledger sums, nothing leaks; the reveal verifies after the close', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const created = await admin.post('/api/admin/competitions', {
      title: 'Instant race',
      // £5: the least an order may spend with site credit; each buyer's £5 credit pays it all.
      ticketPrice: 5,
      totalTickets: 60_000,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'Cash' },
      instantWins: [
        { title: '£2.50 credit', kind: 'credit', amountPence: PRIZE_PENCE, numbers: WON },
        { title: 'Weekend away', kind: 'prize', cashValuePence: 50_000, numbers: UNWON },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;

    const ids = await makeCustomers(db, BUYERS, 'iw', 500);
    const buyers = await Promise.all(ids.map((userId, i) => signIn(server.url, userId, `iw${i}`, [id])));

    // Everything anyone receives: a watcher's and an admin's frames, every buyer's answers.
    const texts: string[] = [];
    const watcher = await connectSocket(server.url);
    const adminSocket = await connectSocket(server.url, admin.cookieHeader);
    const claimed: unknown[] = [];
    watcher.onAny((event, payload) => {
      texts.push(`${event} ${textOf(payload)}`);
      if (event === 'instant-win:claimed') claimed.push(payload);
    });
    adminSocket.onAny((event, payload) => texts.push(`${event} ${textOf(payload)}`));
    try {
      const ack = await watch(watcher, id);
      expect(ack.ok).toBe(true);
      texts.push(textOf(ack));

      const outcomes = await Promise.all(
        buyers.map(async ({ client }, i) => {
          const held = await client.post('/api/cart', {
            competitionId: id,
            quantity: 1,
            selectedNumbers: [i + 1],
          });
          texts.push(held.text);
          if (held.status !== 201) return `hold ${held.status} ${held.text}`;
          const paid = await client.post('/api/create-payment-intent', { useCredit: true });
          texts.push(paid.text);
          if (paid.status !== 200) return `checkout ${paid.status} ${paid.text}`;
          const order = await client.get(`/api/orders/${paid.body.orderId}`);
          texts.push(order.text);
          // Some buyers look at the page mid-race (every one would only slow the race down).
          if (i % 10 === 0) texts.push((await client.get(`/api/competitions/${id}`)).text);
          return order.body.status === 'completed' ? 'ok' : `order ${order.body.status}`;
        }),
      );
      expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);

      // Each prize won exactly once, by the buyer of its number, in one order 1..14.
      const rows = (await db('instantWins').where({ competitionId: id }).orderBy('number')) as Array<{
        number: number;
        userId: number | null;
        wonAt: number | null;
        wonOrder: number | null;
      }>;
      const won = rows.filter((r) => r.wonAt !== null);
      expect(won.map((r) => r.number)).toEqual(WON);
      expect(won.map((r) => r.userId)).toEqual(WON.map((n) => ids[n - 1]));
      expect(won.map((r) => Number(r.wonOrder)).sort((a, b) => a - b)).toEqual(WON.map((_, i) => i + 1));
      expect(rows.filter((r) => r.wonAt === null).map((r) => r.number)).toEqual(UNWON);

      // The ledger: one prize row per win, and every balance equals its ledger.
      const prizes = await db('creditTransactions').where('description', 'like', 'Instant win:%');
      expect(prizes).toHaveLength(WON.length);
      expect(prizes.reduce((sum, r) => sum + Number(r.amountPence), 0)).toBe(WON.length * PRIZE_PENCE);
      expect(await ledgerMismatches(db)).toEqual([]);
      const winner = await db('users')
        .where({ id: ids[WON[0]! - 1] })
        .first('siteCreditPence');
      expect(Number(winner.siteCreditPence)).toBe(500 - 500 + PRIZE_PENCE);

      await waitFor(() => claimed.length === WON.length, 5000, 'instant-win:claimed frames');
      const pub = await admin.get(`/api/competitions/${id}`);
      texts.push(pub.text);
      texts.push((await admin.get(`/api/competitions/${id}/entries`)).text);
      expect(pub.body.instantWinReveal).toBeUndefined();
      expect(leaks(texts), 'unwon numbers sent before the close').toEqual([]);
      // The scan does find them where they belong: the admin's detail.
      expect(leaks([(await admin.get(`/api/admin/competitions/${id}`)).text])).toEqual(UNWON);

      // The close reveals the salt and the list; they match the commitment published at opening.
      const commitment = pub.body.instantWinCommitment as string;
      const closed = await put(admin, `/api/admin/competitions/${id}`, { status: 'ended' });
      expect(closed.status, closed.text).toBe(200);
      const after = await admin.get(`/api/competitions/${id}`);
      const reveal = after.body.instantWinReveal;
      expect(after.body.instantWinCommitment).toBe(commitment);
      expect(reveal.list.map((l: { number: number }) => l.number)).toEqual([...WON, ...UNWON]);
      expect(await verifyInstantWinReveal(commitment, reveal)).toBe(true);
      const text = JSON.stringify(reveal);
      const at = text.indexOf('Weekend');
      const changed = JSON.parse(`${text.slice(0, at)}w${text.slice(at + 1)}`);
      expect(await verifyInstantWinReveal(commitment, changed)).toBe(false);

      // npm run verify-draw checks it too (closed, not drawn yet: the instant wins alone), and
      // fails once a stored title changes by one byte.
      const cli = () =>
        run(process.execPath, ['--import', 'tsx', 'scripts/verify-draw.ts', '--', String(id)], {
          cwd: ROOT,
          env: { ...process.env, BASE_URL: server.url },
        }).then(
          ({ stdout }) => ({ code: 0, stdout }),
          (err: { code: number; stdout: string }) => err,
        );
      const ok = await cli();
      expect(ok.stdout).toContain('OK       instant wins');
      expect(ok.code).toBe(0);
      await db('instantWins')
        .where({ competitionId: id, number: UNWON[0] })
        .update({ title: 'weekend away' });
      const tampered = await cli();
      expect(tampered.stdout).toContain('MISMATCH instant wins');
      expect(tampered.code).toBe(1);
    } finally {
      watcher.disconnect();
      adminSocket.disconnect();
    }
  }, 90_000);
});
