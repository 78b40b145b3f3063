import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import {
  CREDIT_CARD_INSTANT_WIN,
  INSTANT_WIN_RETIRED,
  INSTANT_WINS_LOCKED,
} from '../../../contract/instantWins';
import { patch, put, signedInAdmin } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { collect, connectSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Instant wins (docs/draws.md#instant-wins): the admin's list, its lock, the commitment, winning by
// card, by post, giving a prize back on cancel, and no credit cards (DCMS code).

const DEBIT = '4000 0566 5566 5556';
const CREDIT_CARD = '4242 4242 4242 4242';
const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

const competition = (instantWins: unknown[], overrides: Record<string, unknown> = {}) => ({
  title: 'Instant prizes',
  ticketPrice: 1,
  totalTickets: 100,
  endDate: future(),
  details: { category: 'Cash' },
  instantWins,
  ...overrides,
});

const FIVE_POUNDS = { title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [7] };
const HEADPHONES = {
  title: 'Headphones',
  kind: 'prize',
  description: 'Noise-cancelling headphones',
  cashValuePence: 15_000,
  numbers: [9],
};

describe.skipIf(engineUnavailable())(`instant wins on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  const create = async (instantWins: unknown[], overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/admin/competitions', competition(instantWins, overrides));
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const pay = (client: TestClient, clientSecret: string | null, cardNumber: string) =>
    client.post('/api/payments/sandbox/confirm', { clientSecret, ...card({ cardNumber }) });

  it('the admin sets prizes by count or number; the public sees a commitment and no unwon number', async () => {
    const id = await create([
      FIVE_POUNDS,
      { title: '£1 credit', kind: 'credit', amountPence: 100, count: 3 },
    ]);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.status).toBe(200);
    const wins = detail.body.instantWins as Array<{ number: number; title: string; won: boolean }>;
    expect(wins).toHaveLength(4);
    const numbers = wins.map((w) => w.number);
    expect(new Set(numbers).size).toBe(4);
    expect(numbers).toContain(7);
    for (const n of numbers) expect(n >= 1 && n <= 100).toBe(true);
    expect(detail.body.instantWinCommitment).toMatch(/^[0-9a-f]{64}$/);

    const pub = await admin.get(`/api/competitions/${id}`);
    expect(pub.body.instantWinCommitment).toBe(detail.body.instantWinCommitment);
    expect(pub.body.instantWinReveal).toBeUndefined();
    expect(pub.body.instantWins).toEqual(
      wins.map((w) => ({ id: expect.any(Number), title: w.title, kind: 'credit', won: false })),
    );
    // No competition with instant wins: no commitment.
    const plain = await create([]);
    expect((await admin.get(`/api/competitions/${plain}`)).body.instantWinCommitment).toBeNull();
  });

  it('refuses bad lists with a clear 400 and creates nothing', async () => {
    const before = await db('competitions').count({ n: '*' }).first();
    const cases: Array<[unknown[], string]> = [
      [[{ ...FIVE_POUNDS, numbers: [101] }], 'Instant-win number 101 is not a ticket number'],
      [[FIVE_POUNDS, { ...HEADPHONES, numbers: [7] }], 'Instant-win number 7 is listed twice'],
      [[{ title: 'No amount', kind: 'credit', count: 1 }], 'A credit instant win needs amountPence'],
      [[{ ...FIVE_POUNDS, count: 2 }], 'either a count or a list of numbers'],
      [[{ ...FIVE_POUNDS, numbers: undefined, count: 101 }], 'not enough for 101 instant wins'],
    ];
    for (const [list, message] of cases) {
      const res = await admin.post('/api/admin/competitions', competition(list));
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect(await db('competitions').count({ n: '*' }).first()).toEqual(before);
  });

  it('the list is locked (409) once a number was held; a draft commits when it turns active', async () => {
    const id = await create([FIVE_POUNDS], { status: 'ended' });
    expect((await admin.get(`/api/competitions/${id}`)).body.instantWinCommitment).toBeNull();
    const changed = await put(admin, `/api/admin/competitions/${id}`, { instantWins: [HEADPHONES] });
    expect(changed.status, changed.text).toBe(200);
    const opened = await put(admin, `/api/admin/competitions/${id}`, { status: 'active', endDate: future() });
    expect(opened.status, opened.text).toBe(200);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.instantWins.map((w: { number: number }) => w.number)).toEqual([9]);
    expect(detail.body.instantWinCommitment).toMatch(/^[0-9a-f]{64}$/);

    const { client } = await customer(server.url, id);
    await hold(client, id, [3]);
    const locked = await put(admin, `/api/admin/competitions/${id}`, { instantWins: [FIVE_POUNDS] });
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe(INSTANT_WINS_LOCKED);
    // Released again: still locked, the history keeps the hold.
    await db('tickets').where({ competitionId: id }).delete();
    expect((await put(admin, `/api/admin/competitions/${id}`, { instantWins: [] })).status).toBe(409);
    const audit = detail.body.auditLog.map((a: { action: string }) => a.action);
    expect(audit).toContain('competition.instant_wins.set');
  });

  it('a credit card is refused before money moves; a debit card wins the prize, paid into the ledger', async () => {
    const id = await create([FIVE_POUNDS, HEADPHONES]);
    const { client, user } = await customer(server.url, id);
    const watcher = await connectSocket(server.url);
    const buyer = await connectSocket(server.url, client.cookieHeader);
    const adminSocket = await connectSocket(server.url, admin.cookieHeader);
    try {
      expect((await watch(watcher, id)).ok).toBe(true);
      const claimed = collect(watcher, 'instant-win:claimed');
      const adminClaimed = collect(adminSocket, 'instant-win:claimed');
      const won = collect(buyer, 'instant:won');

      await hold(client, id, [7, 8]);
      const order = await startCheckout(client);
      const refused = await pay(client, order.clientSecret, CREDIT_CARD);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: 'credit_card_instant_win',
        message: CREDIT_CARD_INSTANT_WIN,
      });
      const intent = await db('sandboxPaymentIntents').where({ orderId: order.orderId }).first('status');
      expect(intent.status).toBe('requires_payment_method');
      expect(claimed).toEqual([]);

      const paid = await pay(client, order.clientSecret, DEBIT);
      expect(paid.status, paid.text).toBe(200);
      const view = await client.get(`/api/orders/${order.orderId}`);
      expect(view.body.instantWins).toEqual([
        {
          id: expect.any(Number),
          competitionId: id,
          number: 7,
          title: '£5 site credit',
          kind: 'credit',
          amountPence: 500,
          description: null,
        },
      ]);
      const ledger = await db('creditTransactions').where({ userId: user.id, orderId: order.orderId });
      expect(ledger).toEqual([expect.objectContaining({ type: 'credit', amountPence: 500 })]);
      expect((await db('users').where({ id: user.id }).first('siteCreditPence')).siteCreditPence).toBe(500);

      await waitFor(
        () => claimed.length === 1 && won.length === 1 && adminClaimed.length === 1,
        2000,
        'events',
      );
      expect(claimed[0]).toEqual({
        competitionId: id,
        number: 7,
        prizeTitle: '£5 site credit',
        winnerDisplayName: expect.any(String),
      });
      expect(won[0]).toMatchObject({ competitionId: id, number: 7, prize: { title: '£5 site credit' } });
      await waitFor(
        () =>
          mailTo(server.database.dataDir, user.email).some((m) => m.subject.includes('You won instantly')),
        3000,
        'e-mail',
      );

      const pub = await client.get(`/api/competitions/${id}`);
      const wins = pub.body.instantWins as Array<Record<string, unknown>>;
      expect(wins.find((w) => w.won)).toMatchObject({
        number: 7,
        winnerDisplayName: claimed[0]!.winnerDisplayName,
      });
      expect(JSON.stringify(wins)).not.toContain('"number":9');

      const detail = await admin.get(`/api/admin/competitions/${id}`);
      expect(detail.body.instantWins[0]).toMatchObject({
        number: 7,
        won: true,
        wonOrder: 1,
        winner: { userId: user.id, orderId: order.orderId },
      });
    } finally {
      watcher.disconnect();
      buyer.disconnect();
      adminSocket.disconnect();
    }
  });

  it('a postal entry wins; a physical prize is marked delivered; a cancelled order gives its prize back', async () => {
    const id = await create([FIVE_POUNDS, { ...HEADPHONES, numbers: undefined, count: 99 }]);
    // Every number is an instant win: the postcard's number wins for sure.
    const { user } = await customer(server.url, id);
    const entry = await admin.post(`/api/admin/competitions/${id}/postal-entries`, {
      name: 'Jane Trelawny',
      email: 'jane@example.co.uk',
      address: '12 High Street\nTruro',
      postcode: 'TR1 2AB',
      receivedAt: new Date().toISOString().slice(0, 10),
      answer: '365',
      userId: user.id,
    });
    expect(entry.status, entry.text).toBe(201);
    const wonRow = await db('instantWins').where({ competitionId: id, number: entry.body.number }).first();
    expect(wonRow).toMatchObject({ userId: user.id, orderId: entry.body.entry.orderId, wonOrder: 1 });

    if (wonRow.kind === 'prize') {
      // As for main prizes: not delivered before the winner's age is verified.
      const early = await patch(admin, `/api/admin/competitions/${id}/instant-wins/${wonRow.id}`, {
        delivered: true,
      });
      expect(early.status, early.text).toBe(409);
      expect(early.body.code).toBe('age_verification_required');
      expect((await db('instantWins').where({ id: wonRow.id }).first()).deliveredAt).toBeNull();
      const verified = await admin.post(`/api/admin/users/${user.id}/age-verification`, {});
      expect(verified.status, verified.text).toBe(200);
      const delivered = await patch(admin, `/api/admin/competitions/${id}/instant-wins/${wonRow.id}`, {
        delivered: true,
      });
      expect(delivered.status, delivered.text).toBe(200);
      expect(delivered.body.deliveredAt).toEqual(expect.any(String));
    }
    const unwon = await db('instantWins').where({ competitionId: id }).whereNull('wonAt').first('id');
    const notWon = await patch(admin, `/api/admin/competitions/${id}/instant-wins/${unwon.id}`, {
      delivered: true,
    });
    expect(notWon.status).toBe(409);

    // The buyer of the £5 credit number spends nothing; cancelling takes the credit back.
    const { client: buyer, user: buyerUser } = await customer(server.url, id);
    const number = wonRow.number === 7 ? 8 : 7;
    const credit = await db('instantWins').where({ competitionId: id, number }).first('kind');
    await hold(buyer, id, [number]);
    const order = await startCheckout(buyer);
    expect((await pay(buyer, order.clientSecret, DEBIT)).status).toBe(200);
    const cancelled = await admin.post(`/api/admin/orders/${order.orderId}/cancel`, {
      reason: 'Cancelled in a test',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.instantWinsReturned).toEqual([
      expect.objectContaining({ number, creditRecovered: credit.kind === 'credit' ? true : null }),
    ]);
    expect(await db('instantWins').where({ competitionId: id, number }).first('wonAt', 'orderId')).toEqual({
      wonAt: null,
      orderId: null,
    });
    expect((await db('users').where({ id: buyerUser.id }).first('siteCreditPence')).siteCreditPence).toBe(0);
  });

  it('a prize given back by a cancelled order is retired: its number, public since the win, never wins again', async () => {
    const id = await create([FIVE_POUNDS]);
    const { client: a, user: userA } = await customer(server.url, id);
    await hold(a, id, [7]);
    const orderA = await startCheckout(a);
    expect((await pay(a, orderA.clientSecret, DEBIT)).status).toBe(200);
    // The win is announced with its number.
    const announced = (await a.get(`/api/competitions/${id}`)).body.instantWins;
    expect(announced).toEqual([expect.objectContaining({ won: true, number: 7 })]);

    const cancelled = await admin.post(`/api/admin/orders/${orderA.orderId}/cancel`, {
      reason: 'Cancelled in a test',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.message).toContain('retired');
    expect((await db('users').where({ id: userA.id }).first('siteCreditPence')).siteCreditPence).toBe(0);
    const after = (await a.get(`/api/competitions/${id}`)).body.instantWins;
    expect(after).toEqual([
      {
        id: expect.any(Number),
        title: '£5 site credit',
        kind: 'credit',
        won: false,
        number: 7,
        retired: true,
      },
    ]);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.instantWins[0]).toMatchObject({
      number: 7,
      won: false,
      retiredAt: expect.any(String),
    });

    // The number is on sale again, as a plain ticket: buyer B wins nothing with it.
    const { client: b, user: userB } = await customer(server.url, id);
    const socketB = await connectSocket(server.url, b.cookieHeader);
    try {
      const won = collect(socketB, 'instant:won');
      await hold(b, id, [7]);
      const orderB = await startCheckout(b);
      expect((await pay(b, orderB.clientSecret, DEBIT)).status).toBe(200);
      expect((await b.get(`/api/orders/${orderB.orderId}`)).body.instantWins ?? []).toEqual([]);
      expect((await db('users').where({ id: userB.id }).first('siteCreditPence')).siteCreditPence).toBe(0);
      expect(await db('creditTransactions').where({ userId: userB.id })).toEqual([]);
      const row = await db('instantWins').where({ competitionId: id, number: 7 }).first();
      expect(row).toMatchObject({ wonAt: null, userId: null, orderId: null });
      expect(won).toEqual([]);
      expect((await b.get(`/api/competitions/${id}`)).body.instantWins).toEqual(after);
    } finally {
      socketB.disconnect();
    }
    expect(INSTANT_WIN_RETIRED).toContain('not to be won again');
  });
});
