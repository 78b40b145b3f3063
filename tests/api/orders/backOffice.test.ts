import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { formatOrderNumber } from '../../../contract/checkout';
import { buyWithCard, ledgerMismatches, signedInAdmin, signedInCustomer } from '../../support/admin';
import { grantCredit } from '../../support/checkout';
import { insertCompetition, insertUser } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The back office (issue 39 §10): the customer view, credit adjustments with a reason, notes,
// cancellation with a reason and a refund to the card or as site credit, and the CSV exports.

describe.skipIf(engineUnavailable())(`back office on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let adminId: number;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    const signedIn = await signedInAdmin(s.url);
    admin = signedIn.client;
    adminId = Number((await db('users').where({ username: 'admin' }).first()).id);
  });

  const balance = async (userId: number) =>
    Number((await db('users').where({ id: userId }).first()).siteCreditPence);

  it('finds customers by part of a name, e-mail, username or id', async () => {
    const id = await insertUser(db, { email: 'zelda.searchable@example.com', firstName: 'Zelda' });
    const byEmail = await admin.get('/api/admin/customers?search=SEARCHABLE@example');
    expect(byEmail.status, byEmail.text).toBe(200);
    expect(byEmail.body.customers.map((c: { id: number }) => c.id)).toEqual([id]);
    expect(byEmail.body).toMatchObject({ total: 1, page: 1 });
    const byName = await admin.get('/api/admin/customers?search=zeld');
    expect(byName.body.customers.map((c: { id: number }) => c.id)).toContain(id);
    const byId = await admin.get(`/api/admin/customers?search=${id}`);
    expect(byId.body.customers.map((c: { id: number }) => c.id)).toContain(id);
    // LIKE wildcards are literal.
    expect((await admin.get('/api/admin/customers?search=%25')).body.total).toBe(0);
    expect((await admin.get('/api/admin/customers?pageSize=1000')).status).toBe(400);
  });

  it('shows one customer: orders, entries, ledger, notes and protection settings', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, title: 'Customer view prize' });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [3, 8]);
    await db('users')
      .where({ id: user.id })
      .update({ selfExcludedUntil: Date.now() + 86_400_000 });
    const res = await admin.get(`/api/admin/customers/${user.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, email: user.email });
    expect(res.body.orders.map((o: { id: number }) => o.id)).toEqual([orderId]);
    expect(res.body.entries).toEqual([
      expect.objectContaining({
        competitionId: comp,
        title: 'Customer view prize',
        orderId,
        ticketNumbers: [3, 8],
      }),
    ]);
    expect(res.body.protection.selfExcludedUntil).toEqual(expect.any(String));
    expect(res.body.protection.spendLimits).toMatchObject({ monthlySpendLimitPence: null });
    expect(res.body.notes).toEqual([]);
    expect((await admin.get('/api/admin/customers/999999')).status).toBe(404);
  });

  it('adjusts credit with a reason: one ledger row, the balance moved, audited; never below zero', async () => {
    const userId = await insertUser(db);
    const added = await admin.post(`/api/admin/customers/${userId}/credit`, {
      amount: 5.5,
      reason: 'Goodwill for a late delivery',
    });
    expect(added.status, added.text).toBe(200);
    expect(added.body.creditBalance).toBe(5.5);
    expect(added.body.ledger).toEqual([
      expect.objectContaining({
        type: 'credit',
        amount: 5.5,
        description: 'Adjusted by admin: Goodwill for a late delivery',
      }),
    ]);
    const taken = await admin.post(`/api/admin/customers/${userId}/credit`, {
      amount: -2,
      reason: 'Duplicate goodwill',
    });
    expect(taken.status, taken.text).toBe(200);
    expect(await balance(userId)).toBe(350);
    expect(await db('creditTransactions').where({ userId, type: 'debit' })).toEqual([
      expect.objectContaining({ amountPence: 200, description: 'Adjusted by admin: Duplicate goodwill' }),
    ]);
    expect(await db('auditLog').where({ action: 'credit.adjust', entityId: String(userId) })).toHaveLength(2);

    // Refusals change nothing.
    const rowsBefore = await db('creditTransactions').where({ userId });
    const tooMuch = await admin.post(`/api/admin/customers/${userId}/credit`, {
      amount: -10,
      reason: 'Too much',
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe('The balance is £3.50; it cannot go below zero.');
    for (const bad of [
      { amount: 1, reason: '' },
      { amount: 0, reason: 'Nothing' },
      { amount: 1.234, reason: 'Fractions of a penny' },
      { amount: 1 },
    ]) {
      expect(
        (await admin.post(`/api/admin/customers/${userId}/credit`, bad)).status,
        JSON.stringify(bad),
      ).toBe(400);
    }
    expect(
      (await admin.post('/api/admin/customers/999999/credit', { amount: 1, reason: 'Nobody' })).status,
    ).toBe(404);
    expect(await db('creditTransactions').where({ userId })).toEqual(rowsBefore);
    expect(await balance(userId)).toBe(350);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('keeps notes with the admin and the time, newest first', async () => {
    const userId = await insertUser(db);
    const first = await admin.post(`/api/admin/customers/${userId}/notes`, { text: 'Called about a refund' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      text: 'Called about a refund',
      admin: 'admin',
      createdAt: expect.any(String),
    });
    await admin.post(`/api/admin/customers/${userId}/notes`, { text: 'Second note' });
    const view = await admin.get(`/api/admin/customers/${userId}`);
    expect(view.body.notes.map((n: { text: string }) => n.text)).toEqual([
      'Second note',
      'Called about a refund',
    ]);
    expect(await db('customerNotes').where({ userId, adminId })).toHaveLength(2);
    expect((await admin.post(`/api/admin/customers/${userId}/notes`, { text: '   ' })).status).toBe(400);
    expect((await admin.post('/api/admin/customers/999999/notes', { text: 'Nobody' })).status).toBe(404);
  });

  it('cancels with a reason quoted in the e-mail, refunded to the card', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 200 });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [1, 2]);
    const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, {
      reason: 'The prize was withdrawn by the supplier',
      refundTo: 'card',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('refunded');
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    expect(await db('sandboxRefunds').where({ paymentIntentId: intent })).toHaveLength(1);
    expect((await db('orders').where({ id: orderId }).first()).cancellationReason).toBe(
      'The prize was withdrawn by the supplier',
    );
    const mail = mailTo(server.database.dataDir, user.email).find((m) => m.subject.includes('cancelled'));
    expect(mail?.text).toContain('Our team gave this reason: The prize was withdrawn by the supplier');
    expect(mail?.text).toContain('£4.00 has been refunded to the card you paid with.');
  });

  it('cancels refunding the card payment as site credit: a ledger row, no gateway refund', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 150 });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [5, 6, 7]);
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const before = await balance(user.id);
    const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, {
      reason: 'Customer asked for credit instead',
      refundTo: 'credit',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('credit');
    expect(await balance(user.id)).toBe(before + 450);
    expect(await db('sandboxRefunds').where({ paymentIntentId: intent })).toHaveLength(0);
    expect(await db('creditTransactions').where({ userId: user.id, orderId, type: 'credit' })).toEqual([
      expect.objectContaining({
        amountPence: 450,
        description: `Card payment of cancelled order ${formatOrderNumber(orderId)} returned as site credit`,
      }),
    ]);
    expect(Number((await db('orders').where({ id: orderId }).first()).refundedPence)).toBe(450);
    const mail = mailTo(server.database.dataDir, user.email).find((m) => m.subject.includes('cancelled'));
    expect(mail?.text).toContain('£4.50 has been returned to your site credit.');
    expect(mail?.text).toContain('Our team gave this reason: Customer asked for credit instead');
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses a cancellation without a reason, or with a bad refund target, changing nothing', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30 });
    const { client } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [9]);
    for (const body of [{}, { reason: ' ' }, { reason: 'A reason', refundTo: 'cash' }]) {
      expect((await admin.post(`/api/admin/orders/${orderId}/cancel`, body)).status).toBe(400);
    }
    expect((await db('orders').where({ id: orderId }).first()).status).toBe('completed');
    expect(await db('tickets').where({ competitionId: comp, status: 'sold' })).toHaveLength(1);
  });

  it('refunds some tickets of an order: exactly those numbers back on sale, exactly their price to the card', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 250 });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [2, 4, 6, 8]);
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const res = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
      competitionId: comp,
      numbers: [6, 2],
      reason: 'Bought twice by mistake',
      refundTo: 'card',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refund: 'refunded', amount: 5, numbers: [2, 6] });
    const sold = await db('tickets').where({ competitionId: comp, status: 'sold' }).orderBy('number');
    expect(sold.map((t: { number: number }) => Number(t.number))).toEqual([4, 8]);
    expect(Number((await db('competitions').where({ id: comp }).first()).ticketsSold)).toBe(2);
    const entry = await db('userEntries').where({ orderId }).first();
    expect(JSON.parse(entry.ticketNumbers)).toEqual([4, 8]);
    const refunds = await db('sandboxRefunds').where({ paymentIntentId: intent });
    expect(refunds.map((r: { amountPence: number }) => Number(r.amountPence))).toEqual([500]);
    const order = await db('orders').where({ id: orderId }).first();
    expect(order.status).toBe('completed');
    expect(Number(order.refundedPence)).toBe(500);
    expect(
      await db('auditLog').where({ action: 'order.refundTickets', entityId: String(orderId) }),
    ).toHaveLength(1);

    // Refusals, nothing changed: a number not on the order (or already refunded), all the rest, an
    // empty or repeated list, a customer.
    const state = async () => ({
      tickets: await db('tickets').where({ competitionId: comp }).orderBy('number'),
      refunds: await db('sandboxRefunds').where({ paymentIntentId: intent }),
      order: await db('orders').where({ id: orderId }).first(),
      credit: await balance(user.id),
    });
    const before = await state();
    const body = { competitionId: comp, reason: 'Again', refundTo: 'card' };
    const again = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, { ...body, numbers: [2] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Not sold on this order: 2.');
    const everything = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
      ...body,
      numbers: [4, 8],
    });
    expect(everything.status).toBe(409);
    expect(everything.body.message).toBe('To refund every ticket of the order, cancel it.');
    expect(
      (await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, { ...body, numbers: [] })).status,
    ).toBe(400);
    expect(
      (await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, { ...body, numbers: [4, 4] })).status,
    ).toBe(400);
    expect(
      (await client.post(`/api/admin/orders/${orderId}/refund-tickets`, { ...body, numbers: [4] })).status,
    ).toBe(403);
    expect(await state()).toEqual(before);

    // Cancelling later refunds only what is left of the card payment.
    const cancelled = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'The rest too' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.refund).toBe('refunded');
    const all = await db('sandboxRefunds').where({ paymentIntentId: intent }).orderBy('createdAt');
    expect(all.map((r: { amountPence: number }) => Number(r.amountPence)).sort()).toEqual([500, 500]);
  });

  it('refunds some tickets as site credit: a ledger row of exactly their price', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 120 });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [1, 3, 5]);
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const credit = await balance(user.id);
    const res = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
      competitionId: comp,
      numbers: [3],
      reason: 'Goodwill',
      refundTo: 'credit',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ refund: 'credit', amount: 1.2, numbers: [3] });
    expect(await balance(user.id)).toBe(credit + 120);
    expect(await db('creditTransactions').where({ userId: user.id, orderId, type: 'credit' })).toEqual([
      expect.objectContaining({ amountPence: 120 }),
    ]);
    expect(await db('sandboxRefunds').where({ paymentIntentId: intent })).toHaveLength(0);
    const sold = await db('tickets').where({ competitionId: comp, status: 'sold' }).orderBy('number');
    expect(sold.map((t: { number: number }) => Number(t.number))).toEqual([1, 5]);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('a refund of some tickets racing a cancellation of the same order: one waits for the other, no money twice', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 300 });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [10, 11, 12]);
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const credit = await balance(user.id);
    const [partial, cancelled] = await Promise.all([
      admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
        competitionId: comp,
        numbers: [11],
        reason: 'Racing',
        refundTo: 'card',
      }),
      admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Racing too' }),
    ]);
    expect(cancelled.status, cancelled.text).toBe(200);
    // Either the refund went first (and the cancel refunded the rest) or it found the order cancelled.
    expect([200, 409]).toContain(partial.status);
    const refunds = await db('sandboxRefunds').where({ paymentIntentId: intent });
    const refunded = refunds.reduce((n: number, r: { amountPence: number }) => n + Number(r.amountPence), 0);
    expect(refunded).toBe(900);
    expect(refunds).toHaveLength(partial.status === 200 ? 2 : 1);
    expect(await db('tickets').where({ competitionId: comp })).toEqual([]);
    expect(Number((await db('competitions').where({ id: comp }).first()).ticketsSold)).toBe(0);
    expect(await balance(user.id)).toBe(credit);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('exports orders and live competitions as CSV, formulas neutralised', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, title: '=HYPERLINK("x") prize' });
    const { client } = await signedInCustomer(server.url, { username: 'csvbuyer' });
    const orderId = await buyWithCard(client, comp, [4]);
    const orders = await admin.get('/api/admin/export/orders.csv');
    expect(orders.status).toBe(200);
    expect(orders.headers.get('content-type')).toContain('text/csv');
    expect(orders.headers.get('content-disposition')).toMatch(
      /^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(orders.text).toContain('Order Number,Status,Customer,Email,Tickets');
    expect(orders.text).toContain(`${formatOrderNumber(orderId)},completed,csvbuyer`);
    const live = await admin.get('/api/admin/export/live-competitions.csv');
    expect(live.status).toBe(200);
    expect(live.text).toContain('ID,Title,Category,Ticket Price,Tickets Sold,Total Tickets,Sales,Ends');
    expect(live.text).toContain(`${comp},"'=HYPERLINK(""x"") prize"`);
  });

  it('answers a customer 403 on the customer view and changes nothing', async () => {
    const { client, user } = await signedInCustomer(server.url);
    await grantCredit(db, user.id, 100);
    expect((await client.get(`/api/admin/customers/${user.id}`)).status).toBe(403);
    expect(
      (await client.post(`/api/admin/customers/${user.id}/credit`, { amount: 50, reason: 'Myself' })).status,
    ).toBe(403);
    expect((await client.get('/api/admin/export/orders.csv')).status).toBe(403);
    expect(await balance(user.id)).toBe(100);
  });
});
