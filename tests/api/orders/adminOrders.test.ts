import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { formatOrderNumber } from '../../../contract/checkout';
import { buyWithCard, ledgerMismatches, signedInAdmin, signedInCustomer } from '../../support/admin';
import { expectTicketInvariants } from '../../support/checkout';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const orderNumber = (id: number) => `ORD-${String(id).padStart(10, '0')}`;

describe.skipIf(engineUnavailable())(`admin orders and ticket lookup on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  const sockets: TestSocket[] = [];
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    {
      beforeStop: () => {
        for (const s of sockets) s.disconnect();
      },
    },
  );

  it('cancels a paid order: tickets back on sale in one go, one tickets:released, refund through the sandbox', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const other = await insertCompetition(db, { totalTickets: 50 });
    const { client: customer, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(customer, id, [4, 9, 12]);
    const keep = await buyWithCard(customer, other, [1]);
    expect(Number((await db('competitions').where({ id }).first()).ticketsSold)).toBe(3);

    const watcher = await connectSocket(server.url);
    const adminSocket = await connectSocket(server.url, admin.cookieHeader);
    sockets.push(watcher, adminSocket);
    const ack = await watch(watcher, id);
    const version = ack.ok ? ack.snapshot.version : -1;
    const released = collect(watcher, 'tickets:released');
    const adminOrders = collect(adminSocket, 'admin:order');

    const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Cancelled in a test' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.message).toBe(
      `Order ${formatOrderNumber(orderId)} cancelled, tickets returned to general sale.`,
    );
    expect(res.body.refund).toBe('refunded');
    expect(res.body.order).toMatchObject({
      id: orderId,
      status: 'cancelled',
      refund: { amount: 3, refundedAt: expect.any(String) },
    });

    await waitFor(() => released.length >= 1, 2000, 'tickets:released');
    await waitFor(() => adminOrders.some((e) => e.change === 'cancelled'), 2000, 'admin:order cancelled');
    // The cancellation's ticket events went out (after COMMIT) before its answer: a second
    // tickets:released would be here after a round trip.
    await barrier(watcher);
    expect(released).toEqual([{ competitionId: id, version: version + 1, numbers: [4, 9, 12] }]);

    // The numbers are free again, the count is back, the entry is gone; the other order is untouched.
    expect(Number((await db('competitions').where({ id }).first()).ticketsSold)).toBe(0);
    expect(await db('tickets').where({ competitionId: id })).toEqual([]);
    expect(await db('userEntries').where({ orderId })).toEqual([]);
    expect(await db('userEntries').where({ orderId: keep })).toHaveLength(1);
    const available = await customer.get(`/api/competitions/${id}/available-tickets`);
    expect(available.body).toEqual(expect.arrayContaining([4, 9, 12]));
    await expectTicketInvariants(db);

    // The sandbox recorded the refund once, for the whole amount.
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const refunds = await db('sandboxRefunds').where({ paymentIntentId: intent });
    expect(refunds).toHaveLength(1);
    expect(Number(refunds[0].amountPence)).toBe(300);

    // Already cancelled: 409, nothing changes.
    const again = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Cancelled in a test' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Order ${formatOrderNumber(orderId)} has already been cancelled.`);
    expect(await db('sandboxRefunds').where({ paymentIntentId: intent })).toHaveLength(1);

    // The detail shows payment reference and the audit trail.
    const detail = await admin.get(`/api/admin/orders/${orderId}`);
    expect(detail.body).toMatchObject({
      id: orderId,
      orderNumber: orderNumber(orderId),
      status: 'cancelled',
      paymentReference: intent,
      paymentIntentId: intent,
      user: { id: user.id, email: user.email },
      items: [expect.objectContaining({ competitionId: id, numbers: [4, 9, 12] })],
    });
    expect(detail.body.auditLog).toEqual([
      expect.objectContaining({
        action: 'order.cancel',
        before: expect.objectContaining({ status: 'completed' }),
        after: expect.objectContaining({ status: 'cancelled', ticketsReturned: 3 }),
      }),
    ]);

    // The ticket's history tells the story.
    const lookup = await admin.get(`/api/admin/tickets/lookup?competitionId=${id}&number=9`);
    expect(lookup.status).toBe(404);
    expect(lookup.body.message).toBe('Ticket not found');
    expect(lookup.body.details.history.map((h: { event: string }) => h.event)).toEqual([
      'held',
      'sold',
      'cancelled',
    ]);
  });

  it('gives back site credit spent on a cancelled order through the ledger', async () => {
    const id = await insertCompetition(db, { totalTickets: 20, ticketPricePence: 100 });
    const userId = await insertUser(db);
    const orderId = await sellTickets(db, id, userId, [1, 2]);
    await db('orders')
      .where({ id: orderId })
      .update({ creditAppliedPence: 200, totalPence: 0, paymentProvider: 'credit' });
    // What spending it looked like.
    await db('creditTransactions').insert([
      { userId, type: 'credit', amountPence: 500, description: 'Welcome', createdAt: Date.now() },
      { userId, type: 'debit', amountPence: 200, description: 'Order', orderId, createdAt: Date.now() },
    ]);
    await db('users').where({ id: userId }).update({ siteCreditPence: 300 });
    const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Cancelled in a test' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('none');
    expect(Number((await db('users').where({ id: userId }).first()).siteCreditPence)).toBe(500);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('cancels a pending order without refunding anything', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const { client } = await signedInCustomer(server.url);
    await client.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    await client.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [5] });
    const intent = await client.post('/api/create-payment-intent', { version: 5 });
    expect(intent.status, intent.text).toBe(200);
    const res = await admin.post(`/api/admin/orders/${intent.body.orderId}/cancel`, {
      reason: 'Cancelled in a test',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('none');
    expect(res.body.order.status).toBe('cancelled');
    expect(await db('sandboxRefunds')).toHaveLength(1); // only the first test's
    expect(
      (await admin.post('/api/admin/orders/999999/cancel', { reason: 'Cancelled in a test' })).status,
    ).toBe(404);
  });

  it('lists orders newest first, filtered by status, searched by order number or e-mail, paginated', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const carol = await insertUser(db, { email: 'carol.findme@example.com' });
    const ids: number[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await sellTickets(db, id, carol, [10 + n]));
    await db('orders').where({ id: ids[0] }).update({ status: 'failed' });

    const all = await admin.get('/api/admin/orders?pageSize=100');
    expect(all.status).toBe(200);
    const listed = all.body.orders.map((o: { id: number }) => o.id);
    expect(listed).toEqual([...listed].sort((a: number, b: number) => b - a));
    expect(all.body.total).toBe(listed.length);

    const byNumber = await admin.get(`/api/admin/orders?search=${orderNumber(ids[2]!)}`);
    expect(byNumber.body.orders.map((o: { id: number }) => o.id)).toEqual([ids[2]]);
    expect((await admin.get(`/api/admin/orders?search=%23${ids[2]}`)).body.total).toBe(1);

    const byEmail = await admin.get('/api/admin/orders?search=FINDME@example&pageSize=2&page=2');
    expect(byEmail.body).toMatchObject({ total: 5, page: 2, pageSize: 2, totalPages: 3 });
    expect(byEmail.body.orders.map((o: { id: number }) => o.id)).toEqual([ids[2], ids[1]]);
    expect(byEmail.body.orders[0].user.email).toBe('carol.findme@example.com');

    const failed = await admin.get('/api/admin/orders?status=failed&search=carol.findme');
    expect(failed.body.orders.map((o: { id: number }) => o.id)).toEqual([ids[0]]);
    // LIKE wildcards in a search are literal.
    expect((await admin.get('/api/admin/orders?search=%25')).body.total).toBe(0);

    expect((await admin.get('/api/admin/orders?status=shipped')).status).toBe(400);
    expect((await admin.get('/api/admin/orders?page=0')).status).toBe(400);
    expect((await admin.get('/api/admin/orders?pageSize=1000')).status).toBe(400);
    expect((await admin.get('/api/admin/orders/999999')).status).toBe(404);
  });

  it('looks a ticket up: ticket, competition, user, order and history; the spec messages otherwise', async () => {
    const id = await insertCompetition(db, {
      totalTickets: 30,
      title: 'Lookup prize',
      ticketPricePence: 150,
    });
    const { client: customer, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(customer, id, [7]);
    const res = await admin.get(`/api/admin/tickets/lookup?competitionId=${id}&number=7`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      ticket: { number: 7, status: 'sold', userId: user.id, orderId, isClaimed: true },
      competition: { id, title: 'Lookup prize', ticketPrice: 1.5 },
      user: { id: user.id, username: user.username, email: user.email },
      order: { id: orderId, orderNumber: orderNumber(orderId), status: 'completed', total: 1.5 },
    });
    expect(res.body.history.map((h: { event: string }) => h.event)).toEqual(['held', 'sold']);
    expect(res.body.history[1]).toMatchObject({ orderId, userId: user.id, at: expect.any(String) });

    // A held number shows its hold; a free number is not found.
    await customer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [8] });
    const held = await admin.get(`/api/admin/tickets/lookup?competitionId=${id}&number=8`);
    expect(held.body).toMatchObject({ ticket: { status: 'reserved' }, order: null });
    await customer.request('DELETE', '/api/cart');
    const freed = await admin.get(`/api/admin/tickets/lookup?competitionId=${id}&number=8`);
    expect(freed.status).toBe(404);
    expect(freed.body.details.history.map((h: { event: string; note: string }) => [h.event, h.note])).toEqual(
      [
        ['held', null],
        ['released', 'removed from cart'],
      ],
    );
    const never = await admin.get(`/api/admin/tickets/lookup?competitionId=${id}&number=20`);
    expect(never).toMatchObject({
      status: 404,
      body: { message: 'Ticket not found', code: 'ticket_not_found' },
    });
    expect(never.body.details).toBeUndefined();

    for (const [query, message] of [
      [`number=7`, 'Please select a competition'],
      [`competitionId=&number=7`, 'Please select a competition'],
      [`competitionId=${id}&number=0`, 'Ticket number must be a positive integer'],
      [`competitionId=${id}&number=2.5`, 'Ticket number must be a positive integer'],
      [`competitionId=${id}`, 'Ticket number must be a positive integer'],
    ] as const) {
      const bad = await admin.get(`/api/admin/tickets/lookup?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.body.message, query).toBe(message);
    }
    expect((await admin.get('/api/admin/tickets/lookup?competitionId=999999&number=1')).status).toBe(404);
  });

  it('writes history when the sweeper releases an expired hold', async () => {
    const id = await insertCompetition(db, { totalTickets: 10 });
    const { client: customer } = await signedInCustomer(server.url);
    await customer.post(`/api/competitions/${id}/skill-answer`, { answer: '365' });
    await customer.post('/api/cart', { competitionId: id, quantity: 1, selectedNumbers: [3] });
    const { sweepExpired } = await import('../../../api/tickets/expirySweeper');
    await sweepExpired({ db, events: server.deps.events, ttlSeconds: 600 }, Date.now() + 3_600_000);
    const events = await db('ticketEvents').where({ competitionId: id, number: 3 }).orderBy('id');
    expect(events.map((e: { event: string; note: string | null }) => [e.event, e.note])).toEqual([
      ['held', null],
      ['released', 'expired'],
    ]);
  });

  it('counts users, competitions and orders for the dashboard', async () => {
    const res = await admin.get('/api/admin/dashboard');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      userCount: Number((await db('users').whereNull('deletedAt').count({ n: '*' }).first())!.n),
      competitionCount: Number((await db('competitions').count({ n: '*' }).first())!.n),
      orderCount: Number((await db('orders').count({ n: '*' }).first())!.n),
      reconciledPaymentCount: 0,
    });
  });
});
