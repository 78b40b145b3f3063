import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { settleMinimumSales } from '../../../api/orders/bulkRefund/minimumSales';
import {
  ALREADY_CANCELLED,
  CANCEL_DRAWN,
  MINIMUM_OVER_TOTAL,
  minimumNotReached,
} from '../../../contract/minimumSales';
import { ledgerMismatches, put, signedInAdmin } from '../../support/admin';
import { card, customer, grantCredit, hold, startCheckout } from '../../support/checkout';
import type { TestClient } from '../../support/httpClient';
import { mailTo, outboxDrained } from '../../support/outbox';
import { barrier, collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Minimum sales and bulk refunds (docs/product.md#minimum-sales-and-cancellation): an admin cancels
// a competition and a job refunds every order exactly once (card, credit, the competition's part
// of an order with other competitions, a postcard with nothing to refund), with its progress live
// in the admins' room and one e-mail per entrant; at the end date a competition short of its
// minimum is extended while it may be, else cancelled the same way.

const DAY = 86_400_000;
const body = (overrides: Record<string, unknown> = {}) => ({
  title: `Minimum ${Math.random().toString(36).slice(2, 8)}`,
  ticketPrice: 5,
  totalTickets: 20,
  endDate: new Date(Date.now() + 10 * DAY).toISOString(),
  details: { category: 'Electronics' },
  ...overrides,
});
const POSTCARD = {
  name: 'Pat Penhaligon',
  email: 'pat.bulk@example.co.uk',
  address: '3 Chapel Street\nPenzance',
  postcode: 'TR18 4AQ',
  receivedAt: new Date().toISOString().slice(0, 10),
  answer: '365',
};

async function payByCard(client: TestClient, body: Record<string, unknown> = {}) {
  const order = await startCheckout(client, body);
  if (order.clientSecret) {
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: order.clientSecret,
      ...card(),
    });
    expect(paid.status, paid.text).toBe(200);
  }
  return order.orderId;
}

describe.skipIf(engineUnavailable())(`minimum sales and bulk refunds on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let adminCookie: string;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    const signed = await signedInAdmin(s.url);
    admin = signed.client;
    adminCookie = signed.client.cookieHeader;
  });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  const create = async (overrides: Record<string, unknown> = {}) => {
    const res = await admin.post('/api/admin/competitions', body(overrides));
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const deps = () => ({ ...server.deps, gateway: server.gateway });

  it('validates the rule, and the public detail carries it', async () => {
    const over = await admin.post('/api/admin/competitions', body({ minTicketsSold: 21 }));
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(MINIMUM_OVER_TOTAL);
    for (const bad of [
      { extendByDays: 0 },
      { extendByDays: 31 },
      { maxExtensions: 4 },
      { minTicketsSold: 0 },
    ]) {
      const res = await admin.post('/api/admin/competitions', body(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const id = await create({ minTicketsSold: 10, extendByDays: 3, maxExtensions: 2 });
    expect((await admin.get(`/api/competitions/${id}`)).body).toMatchObject({
      minTicketsSold: 10,
      extendByDays: 3,
      maxExtensions: 2,
      extensionsUsed: 0,
      cancellationReason: null,
    });
    const lowered = await put(admin, `/api/admin/competitions/${id}`, { totalTickets: 5 });
    expect(lowered.status).toBe(400);
  });

  it('cancelling refunds every order once: card, credit, part of a mixed order and a postcard; live progress; one e-mail each', async () => {
    const id = await create();
    const other = await create({ title: 'Other competition' });
    const adminSocket = await connectSocket(server.url, adminCookie);
    sockets.push(adminSocket);
    const progress = collect(adminSocket, 'admin:job');

    const ann = await customer(server.url, id, other);
    await hold(ann.client, id, [1, 2]);
    const annOrder = await payByCard(ann.client);
    // Bo pays with site credit only.
    const bo = await customer(server.url, id);
    await grantCredit(db, bo.user.id, 500);
    await hold(bo.client, id, [3]);
    const boOrder = await payByCard(bo.client, { useCredit: true });
    // Ann again: one order with numbers here and in another competition.
    await hold(ann.client, id, [4]);
    await hold(ann.client, other, [1]);
    const mixed = await payByCard(ann.client);
    expect((await admin.post(`/api/admin/competitions/${id}/postal-entries`, POSTCARD)).status).toBe(201);
    // A hold in a cart goes with the cancellation.
    const cal = await customer(server.url, id);
    await hold(cal.client, id, 1); // a Lucky Dip: the postcard took a random number
    await outboxDrained(db);

    const res = await admin.post(`/api/admin/competitions/${id}/cancel`, {
      reason: 'The supplier withdrew the prize',
    });
    expect(res.status, res.text).toBe(202);
    const { jobId } = res.body as { jobId: number };
    await waitFor(
      async () => (await admin.get(`/api/admin/jobs/${jobId}`)).body.status !== 'running',
      15_000,
      'the job',
    );
    const job = (await admin.get(`/api/admin/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ id: jobId, competitionId: id, status: 'done', done: 4, total: 4, failed: 0 });

    // Every order refunded once: the card orders at the gateway, the credit back in the ledger.
    const orders = await db('orders').whereIn('id', [annOrder, boOrder]).orderBy('id');
    for (const o of orders) expect(o.status).toBe('cancelled');
    const refunds = await db('sandboxRefunds').select('paymentIntentId', 'amountPence');
    const intentOf = async (orderId: number) =>
      (await db('orders').where({ id: orderId }).first('paymentIntentId')).paymentIntentId;
    expect(refunds.filter((r) => r.paymentIntentId === null)).toEqual([]);
    const byIntent = new Map<string, number[]>();
    for (const r of refunds)
      byIntent.set(r.paymentIntentId, [...(byIntent.get(r.paymentIntentId) ?? []), Number(r.amountPence)]);
    expect(byIntent.get(await intentOf(annOrder))).toEqual([1000]);
    expect(byIntent.get(await intentOf(mixed))).toEqual([500]);
    expect(
      Number((await db('users').where({ id: bo.user.id }).first('siteCreditPence')).siteCreditPence),
    ).toBe(500);
    expect(await ledgerMismatches(db)).toEqual([]);
    // The mixed order keeps its other competition's number, paid.
    expect((await db('orders').where({ id: mixed }).first('status')).status).toBe('completed');
    expect(await db('tickets').where({ orderId: mixed, status: 'sold' }).select('competitionId')).toEqual([
      { competitionId: other },
    ]);
    expect(await db('tickets').where({ competitionId: id })).toEqual([]);
    expect(
      await db('competitions').where({ id }).first('status', 'ticketsSold', 'cancellationReason'),
    ).toEqual({
      status: 'cancelled',
      ticketsSold: 0,
      cancellationReason: 'The supplier withdrew the prize',
    });

    // Progress reached the admins live, ending with the finished job (published just after its COMMIT).
    await waitFor(() => progress.at(-1)?.status === 'done', 5000, 'the last admin:job');
    expect(progress.length).toBeGreaterThanOrEqual(4);
    expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ status: 'done', done: 4, total: 4 });

    // One e-mail per entrant, with the reason; no per-order cancellation e-mail.
    await outboxDrained(db);
    const annMail = mailTo(server.database.dataDir, ann.user.email).filter((m) =>
      m.subject.includes('cancelled'),
    );
    expect(annMail).toHaveLength(1);
    expect(annMail[0]!.text).toContain('The supplier withdrew the prize');
    expect(
      mailTo(server.database.dataDir, bo.user.email).filter((m) => m.subject.includes('cancelled')),
    ).toHaveLength(1);
    expect(
      mailTo(server.database.dataDir, POSTCARD.email).filter((m) => m.subject.includes('cancelled')),
    ).toHaveLength(1);
    expect(
      mailTo(server.database.dataDir, cal.user.email).filter((m) => m.subject.includes('cancelled')),
    ).toEqual([]);

    // The page says so; nothing can be held, drawn or cancelled again.
    expect((await admin.get(`/api/competitions/${id}`)).body).toMatchObject({ status: 'cancelled' });
    expect((await cal.client.post('/api/cart', { competitionId: id, quantity: 1 })).status).toBe(409);
    const again = await admin.post(`/api/admin/competitions/${id}/cancel`, { reason: 'Twice' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(ALREADY_CANCELLED);
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(409);
    expect((await put(admin, `/api/admin/competitions/${id}`, { status: 'active' })).status).toBe(409);
  });

  it('refuses a drawn competition, bad input and an unknown job, changing nothing', async () => {
    const id = await create({ totalTickets: 2 });
    await db('competitions').where({ id }).update({ drawnAt: Date.now() });
    const drawn = await admin.post(`/api/admin/competitions/${id}/cancel`, { reason: 'Too late' });
    expect(drawn.status).toBe(409);
    expect(drawn.body.message).toBe(CANCEL_DRAWN);
    const open = await create();
    expect((await admin.post(`/api/admin/competitions/${open}/cancel`, { reason: '' })).status).toBe(400);
    expect((await admin.post(`/api/admin/competitions/${open}/cancel`, {})).status).toBe(400);
    expect((await db('competitions').where({ id: open }).first('status')).status).toBe('active');
    expect(await db('bulkRefundJobs').where({ competitionId: open })).toEqual([]);
    expect((await admin.get('/api/admin/jobs/999999')).status).toBe(404);
    const visitor = await customer(server.url);
    expect(
      (await visitor.client.post(`/api/admin/competitions/${open}/cancel`, { reason: 'Not mine' })).status,
    ).toBe(403);
  });

  it('at the end date: extended while extensions are left (watchers told, entrants e-mailed), then cancelled and refunded', async () => {
    const id = await create({ totalTickets: 10, minTicketsSold: 5, extendByDays: 3, maxExtensions: 1 });
    const ann = await customer(server.url, id);
    await hold(ann.client, id, [1, 2]);
    const order = await payByCard(ann.client);
    const watcher = await connectSocket(server.url);
    sockets.push(watcher);
    expect((await watch(watcher, id)).ok).toBe(true);
    const extended = collect(watcher, 'competition:extended');

    const end = Date.now() - 1000;
    await db('competitions').where({ id }).update({ endDate: end });
    expect(await settleMinimumSales(deps(), Date.now())).toMatchObject({ extended: [id], cancelled: [] });
    const newEnd = end + 3 * DAY;
    expect(await db('competitions').where({ id }).first('status', 'endDate', 'extensionsUsed')).toEqual({
      status: 'active',
      endDate: newEnd,
      extensionsUsed: 1,
    });
    await waitFor(() => extended.length === 1, 5000, 'competition:extended');
    expect(extended[0]).toEqual({
      competitionId: id,
      endDate: new Date(newEnd).toISOString(),
      extensionsUsed: 1,
    });
    expect(
      await db('auditLog')
        .where({ entityId: String(id), action: 'competition.extend' })
        .first('actorUsername'),
    ).toEqual({
      actorUsername: 'system',
    });
    await outboxDrained(db);
    expect(
      mailTo(server.database.dataDir, ann.user.email).filter((m) => m.subject.includes('extended')),
    ).toHaveLength(1);
    // The rule may not change now that entrants were told of it.
    expect((await put(admin, `/api/admin/competitions/${id}`, { minTicketsSold: 2 })).status).toBe(409);

    // Still short at the new end date, no extension left: cancelled, and the job refunds.
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    expect(await settleMinimumSales(deps(), Date.now())).toMatchObject({ extended: [], cancelled: [id] });
    const c = await db('competitions').where({ id }).first('status', 'cancellationReason');
    expect(c).toEqual({ status: 'cancelled', cancellationReason: minimumNotReached(5) });
    await waitFor(
      async () => (await db('orders').where({ id: order }).first('status')).status === 'cancelled',
      15_000,
      'the refund',
    );
    await waitFor(
      async () => (await db('bulkRefundJobs').where({ competitionId: id }).first('status')).status === 'done',
      15_000,
      'the job',
    );
    expect((await admin.get(`/api/competitions/${id}`)).body.cancellationReason).toBe(
      'the minimum of 5 entries was not reached',
    );
    // No draw, and the instant-win list is never revealed.
    expect((await admin.get(`/api/competitions/${id}`)).body.instantWinReveal).toBeUndefined();
    await barrier(watcher);
  });

  it('a competition that reached its minimum closes as usual', async () => {
    const id = await create({ totalTickets: 10, minTicketsSold: 1 });
    const ann = await customer(server.url, id);
    await hold(ann.client, id, [1]);
    await payByCard(ann.client);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    expect(await settleMinimumSales(deps(), Date.now())).toEqual({ extended: [], cancelled: [] });
  });
});
