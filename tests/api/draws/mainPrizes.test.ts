import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeDrawPrizes } from '../../../contract/draw';
import { buyWithCard, del, patch, put, signedInAdmin, signedInCustomer } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Several prizes in the main draw (docs/draws.md "Several prizes"): the admin's list, drawn in
// order without replacement, a winner record, e-mail and delivery per prize, draw:result with the
// list, My Entries, and verify-draw.

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const PRIZES = [
  { title: 'Ford Puma ST', description: 'A 2026 hot crossover', cashValuePence: 3_000_000 },
  { title: '£500 cash' },
  { title: 'Smart watch', cashValuePence: 1_500 },
];

describe.skipIf(engineUnavailable())(`several main prizes on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ DRAW_AUTO_AFTER_SECONDS: '0' });
    db = server.database.db;
    admin = (await signedInAdmin(server.url)).client;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const create = (body: Record<string, unknown>) =>
    admin.post('/api/admin/competitions', {
      title: 'Car and more',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'cash' },
      ...body,
    });

  it('takes an ordered prize list; a competition without one has one prize, its title', async () => {
    const single = await create({ title: 'Just one' });
    expect(single.status, single.text).toBe(201);
    expect(single.body.prizes).toEqual([
      { title: 'Just one', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
    ]);

    const bad = await create({ title: 'Bad prizes', prizes: [{ title: '  ' }] });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Each prize needs a title');
    expect(await db('competitions').where({ title: 'Bad prizes' })).toEqual([]);
    const fraction = await create({ title: 'Bad prizes', prizes: [{ title: 'x', cashValuePence: 1.5 }] });
    expect(fraction.status).toBe(400);

    const created = await create({ prizes: PRIZES });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const none = { cashAlternativePence: null, image: null };
    const expected = [
      { ...PRIZES[0], ...none },
      { title: '£500 cash', description: null, cashValuePence: null, ...none },
      { title: 'Smart watch', description: null, cashValuePence: 1_500, ...none },
    ];
    expect((await admin.get(`/api/admin/competitions/${id}`)).body.prizes).toEqual(expected);
    expect((await admin.get(`/api/competitions/${id}`)).body.prizes).toEqual(expected);
  });

  it('draws three prizes in order with distinct numbers, records, e-mails and announces each', async () => {
    const created = await create({ title: 'Three prizes', prizes: PRIZES });
    const id = created.body.id as number;
    const buyers = await Promise.all([1, 2, 3, 4, 5].map(() => signedInCustomer(server.url)));
    for (const [i, b] of buyers.entries()) await buyWithCard(b.client, id, [i + 1]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });

    const socket = await connectSocket(server.url);
    let drawn: Awaited<ReturnType<TestClient['post']>>;
    const results = collect(socket, 'draw:result');
    try {
      const ack = await watch(socket, id);
      if (!ack.ok) throw new Error(ack.message);
      drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
      expect(drawn.status, drawn.text).toBe(200);
      await waitFor(() => results.length >= 1, 3000, 'draw:result');
    } finally {
      socket.close();
    }

    // The server's result is the published rule's.
    const c = await db('competitions').where({ id }).first('drawSeed', 'drawBeaconRandomness');
    const rule = await computeDrawPrizes(c.drawSeed, [1, 2, 3, 4, 5], 3, c.drawBeaconRandomness);
    const numbers = rule.prizes.map((p) => p.winningNumber);
    expect(new Set(numbers).size).toBe(3);
    const prizes = drawn.body.prizes as Array<{ position: number; title: string; winningNumber: number }>;
    expect(prizes.map((p) => [p.position, p.title, p.winningNumber])).toEqual([
      [1, 'Ford Puma ST', numbers[0]],
      [2, '£500 cash', numbers[1]],
      [3, 'Smart watch', numbers[2]],
    ]);
    expect(drawn.body.winningNumber).toBe(numbers[0]);

    // Backwards-compatible draw:result: the 1st prize on top, the list beside it.
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ competitionId: id, winningNumber: numbers[0], prizes });

    // One winner record each: the draws row (1st) and a draw_prizes row per further prize.
    expect(Number((await db('draws').where({ competitionId: id }).first()).winningNumber)).toBe(numbers[0]);
    const rows = await db('drawPrizes').where({ competitionId: id }).orderBy('position');
    const winnerOf = (n: number) => buyers[n - 1]!;
    expect(
      rows.map((r) => [Number(r.position), r.title, Number(r.winningNumber), Number(r.winnerUserId)]),
    ).toEqual([
      [2, '£500 cash', numbers[1], winnerOf(numbers[1]!).user.id],
      [3, 'Smart watch', numbers[2], winnerOf(numbers[2]!).user.id],
    ]);

    // Each winner has a winner e-mail naming their prize; the others get the result.
    for (const [i, n] of numbers.entries()) {
      const mails = mailTo(server.database.dataDir, winnerOf(n).user.email);
      const winnerMail = mails.find((m) => m.subject.startsWith('You won'));
      expect(winnerMail?.subject).toBe('You won "Three prizes" with Westcountry Prizes!');
      expect(winnerMail?.text).toContain(`Prize: ${['1st', '2nd', '3rd'][i]} prize: ${PRIZES[i]!.title}`);
      expect(winnerMail?.text).toContain(`Winning ticket number: ${n}`);
    }
    const notified = await db('drawPrizes').where({ competitionId: id }).whereNotNull('winnerNotifiedAt');
    expect(notified).toHaveLength(2);
    const losers = [1, 2, 3, 4, 5].filter((n) => !numbers.includes(n));
    const started = Date.now();
    while (
      (
        await db('mailLog')
          .where({ template: 'draw-result' })
          .whereIn(
            'recipient',
            losers.map((n) => winnerOf(n).user.email),
          )
      ).length < losers.length &&
      Date.now() - started < 5000
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const resultMails = await db('mailLog')
      .where({ template: 'draw-result' })
      .whereIn(
        'recipient',
        buyers.map((b) => b.user.email),
      );
    const loserMail = mailTo(server.database.dataDir, winnerOf(losers[0]!).user.email).find((m) =>
      m.subject.startsWith('The draw for'),
    );
    expect(loserMail?.text).toContain(
      `Winning numbers: 1st prize #${numbers[0]}, 2nd prize #${numbers[1]}, 3rd prize #${numbers[2]}`,
    );
    expect(resultMails.map((r) => r.recipient).sort()).toEqual(
      losers.map((n) => winnerOf(n).user.email).sort(),
    );

    // My Entries: each winning entry knows its prize.
    for (const [i, n] of numbers.entries()) {
      const entries = (await winnerOf(n).client.get('/api/user-entries')).body as Array<{
        competitionId: number;
        competition: { draw: { prizes: Array<{ position: number; title: string; winningNumber: number }> } };
      }>;
      const mine = entries.find((e) => e.competitionId === id)!;
      expect(mine.competition.draw.prizes.find((p) => p.winningNumber === n)).toEqual({
        position: i + 1,
        title: PRIZES[i]!.title,
        winningNumber: n,
      });
    }

    // The public winners list carries every prize.
    const winners = (await admin.get('/api/winners')).body as Array<{
      competitionId: number;
      prizes: unknown[];
    }>;
    expect(winners.find((w) => w.competitionId === id)?.prizes).toHaveLength(3);

    // The prizes are fixed with the draw.
    const change = await put(admin, `/api/admin/competitions/${id}`, { prizes: [{ title: 'Other' }] });
    expect(change.status).toBe(409);
    expect(change.body.message).toBe(
      "This competition's draw is fixed or made, so its prizes can't be changed.",
    );
    // The edit form sends the list back unchanged with other fields: that is not a change.
    const same = await put(admin, `/api/admin/competitions/${id}`, { prizes: PRIZES, status: 'ended' });
    expect(same.status, same.text).toBe(200);
  });

  it('marks each prize delivered on its own, with the age check per prize, audit-logged', async () => {
    const id = (await create({ title: 'Deliveries', prizes: PRIZES })).body.id as number;
    const buyers = await Promise.all([1, 2, 3].map(() => signedInCustomer(server.url)));
    for (const [i, b] of buyers.entries()) await buyWithCard(b.client, id, [i + 1]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
    const row = await db('drawPrizes').where({ competitionId: id, position: 2 }).first();

    // The 2nd prize states no value, so its winner's age must be verified first.
    const refused = await patch(admin, `/api/admin/winners/${id}/prizes/2`, { prizeDelivered: true });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('age_verification_required');
    expect((await db('drawPrizes').where({ id: row.id }).first()).prizeDeliveredAt).toBeNull();

    await db('users').where({ id: row.winnerUserId }).update({ ageVerifiedAt: Date.now() });
    const delivered = await patch(admin, `/api/admin/winners/${id}/prizes/2`, { prizeDelivered: true });
    expect(delivered.status, delivered.text).toBe(200);
    const byPosition = (
      delivered.body.prizes as Array<{ position: number; prizeDeliveredAt: string | null }>
    ).map((p) => [p.position, p.prizeDeliveredAt !== null]);
    expect(byPosition).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    // The check is per prize: the 1st prize's winner is still unverified.
    const first = await db('draws').where({ competitionId: id }).first();
    if (Number(first.winnerUserId) !== Number(row.winnerUserId)) {
      const one = await patch(admin, `/api/admin/winners/${id}/prizes/1`, { prizeDelivered: true });
      expect(one.status).toBe(409);
    }
    const third = await db('drawPrizes').where({ competitionId: id, position: 3 }).first();
    await db('users').where({ id: third.winnerUserId }).update({ ageVerifiedAt: Date.now() });
    // An undelivered 3rd prize keeps its winner's account from being deleted, as a 1st prize does.
    const erase = await del(admin, `/api/admin/users/${third.winnerUserId}`);
    expect(erase.status).toBe(409);
    expect(erase.body.message).toContain('"Deliveries"');
    expect((await db('users').where({ id: third.winnerUserId }).first()).deletedAt).toBeNull();
    const three = await patch(admin, `/api/admin/winners/${id}/prizes/3`, { prizeDelivered: true });
    expect(three.status, three.text).toBe(200);
    expect((await patch(admin, `/api/admin/winners/${id}/prizes/4`, { prizeDelivered: true })).status).toBe(
      404,
    );
    expect((await patch(admin, `/api/admin/winners/${id}/prizes/x`, { prizeDelivered: true })).status).toBe(
      400,
    );

    const trail = (await admin.get(`/api/admin/competitions/${id}`)).body.auditLog as Array<{
      action: string;
      before: { position?: number; prize?: string };
    }>;
    expect(
      trail
        .filter((e) => e.action === 'competition.prize_delivered')
        .map((e) => [e.before.position, e.before.prize])
        .sort(),
    ).toEqual([
      [2, '£500 cash'],
      [3, 'Smart watch'],
    ]);

    // A customer cannot.
    const { client } = await signedInCustomer(server.url);
    expect((await patch(client, `/api/admin/winners/${id}/prizes/3`, { prizeDelivered: false })).status).toBe(
      403,
    );
  });

  it('npm run verify-draw checks every prize, and catches a changed one', async () => {
    const id = (await create({ title: 'Verify me', prizes: PRIZES })).body.id as number;
    const buyers = await Promise.all([1, 2, 3, 4].map(() => signedInCustomer(server.url)));
    for (const [i, b] of buyers.entries()) await buyWithCard(b.client, id, [i + 1]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
    const cli = () =>
      run(process.execPath, ['--import', 'tsx', 'scripts/verify-draw.ts', '--', String(id)], {
        cwd: ROOT,
        env: { ...process.env, BASE_URL: server.url },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (err: { code: number; stdout: string }) => err,
      );
    const ok = await cli();
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain('OK       3rd prize winning number');

    const third = await db('drawPrizes').where({ competitionId: id, position: 3 }).first();
    const drawn = (await db('draws').where({ competitionId: id }).first()).winningNumber;
    const second = (await db('drawPrizes').where({ competitionId: id, position: 2 }).first()).winningNumber;
    const other = [1, 2, 3, 4].find(
      (n) => ![Number(drawn), Number(second), Number(third.winningNumber)].includes(n),
    )!;
    await db('drawPrizes').where({ id: third.id }).update({ winningNumber: other });
    const tampered = await cli();
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('MISMATCH 3rd prize winning number');
  });
});
