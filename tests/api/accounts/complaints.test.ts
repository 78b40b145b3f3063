import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { registeredClient, verifiedClient } from '../../support/accounts';
import { put, signedInAdmin } from '../../support/admin';
import { insertCompetition, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The complaints process (docs/product.md#complaints): a customer complains (optionally about an
// order of theirs) and gets a reference and a due date; My Account lists them with their status;
// the admin's queue replies by e-mail and closes.

const DAY_MS = 86_400_000;

describe.skipIf(engineUnavailable())(`complaints on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const complaintCount = async () => Number((await db('complaints').count({ n: '*' }))[0]!.n);
  const waitForMail = async (address: string, subject: string) => {
    for (let i = 0; i < 100; i++) {
      const found = mailTo(server.database.dataDir, address).find((m) => m.subject.includes(subject));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no e-mail "${subject}" to ${address}`);
  };

  it('a signed-in customer complains about an order of theirs and sees it listed as open', async () => {
    const { client, user } = await verifiedClient(server.url, server.database.dataDir);
    const competitionId = await insertCompetition(db);
    const orderId = await sellTickets(db, competitionId, user.id, [4]);

    const before = Date.now();
    const res = await client.post('/api/complaints', {
      subject: '  Wrong numbers ',
      message: 'I picked 4 and 5 but only got 4.',
      orderId,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ reference: expect.stringMatching(/^CMP-[A-Z2-9]{8}$/) });
    const { reference } = res.body;

    const row = await db('complaints').where({ reference }).first();
    expect(row).toMatchObject({ userId: user.id, orderId, subject: 'Wrong numbers', status: 'open' });
    // Due after the default 14 days.
    expect(Number(row.dueAt) - Number(row.createdAt)).toBe(14 * DAY_MS);
    expect(Number(row.createdAt)).toBeGreaterThanOrEqual(before);

    const mine = await client.get('/api/complaints');
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual([
      {
        reference,
        subject: 'Wrong numbers',
        message: 'I picked 4 and 5 but only got 4.',
        status: 'open',
        orderNumber: `ORD-${String(orderId).padStart(10, '0')}`,
        createdAt: new Date(Number(row.createdAt)).toISOString(),
        dueAt: new Date(Number(row.dueAt)).toISOString(),
        replies: [],
      },
    ]);
    const ack = await waitForMail(user.email, reference);
    expect(ack.text).toContain('Wrong numbers');

    // Another customer sees none of it.
    const other = await registeredClient(server.url);
    expect((await other.client.get('/api/complaints')).body).toEqual([]);
  });

  it("refuses a visitor, bad input and another customer's order, storing nothing", async () => {
    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken();
    const before = await complaintCount();
    expect((await visitor.post('/api/complaints', { subject: 'x', message: 'y' })).status).toBe(401);
    expect((await visitor.get('/api/complaints')).status).toBe(401);

    const { client } = await registeredClient(server.url);
    const other = await registeredClient(server.url);
    const orderId = await sellTickets(db, await insertCompetition(db), other.user.id, [1]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subject: '', message: 'Hello' }, 'Subject is required'],
      [{ subject: 'Hi', message: '   ' }, 'Message is required'],
      [{ subject: 'x'.repeat(201), message: 'Hello' }, 'Subject must be at most 200 characters'],
      [{ subject: 'Hi', message: 'Hello', orderId }, 'The order must be one of your orders'],
      [{ subject: 'Hi', message: 'Hello', orderId: 99999999 }, 'The order must be one of your orders'],
      [{ subject: 'Hi', message: 'Hello', orderId: 'ORD-1' }, 'The order must be one of your orders'],
    ];
    for (const [body, message] of cases) {
      const res = await client.post('/api/complaints', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await complaintCount()).toBe(before);
  });

  it('the admin queue: due dates from the settings, a reply e-mailed to the customer, then closed', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const saved = await put(admin, '/api/admin/settings/compliance', {
      complaintResponseDays: 5,
      ageCheckPrizeThreshold: 0,
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await admin.get('/api/admin/settings/compliance')).body).toEqual({
      complaintResponseDays: 5,
      ageCheckPrizeThreshold: 0,
    });
    const badSetting = await put(admin, '/api/admin/settings/compliance', {
      complaintResponseDays: 0,
      ageCheckPrizeThreshold: 0,
    });
    expect(badSetting.status).toBe(400);

    const { client, user } = await registeredClient(server.url, { firstName: 'Morwenna' });
    const { reference } = (
      await client.post('/api/complaints', { subject: 'Late prize', message: 'Where is it?' })
    ).body;
    const customerOnly = await client.get('/api/admin/complaints');
    expect(customerOnly.status).toBe(403);

    const queue = await admin.get(`/api/admin/complaints?status=open&search=${reference}`);
    expect(queue.status).toBe(200);
    expect(queue.body).toMatchObject({ total: 1, page: 1, totalPages: 1 });
    const item = queue.body.complaints.find((c: { reference: string }) => c.reference === reference);
    expect(item).toMatchObject({
      status: 'open',
      overdue: false,
      orderId: null,
      customer: { id: user.id, username: user.username, email: user.email },
    });
    expect(Date.parse(item.dueAt) - Date.parse(item.createdAt)).toBe(5 * DAY_MS);
    expect((await admin.get('/api/admin/complaints?status=pending')).status).toBe(400);

    const empty = await admin.post(`/api/admin/complaints/${item.id}/reply`, { message: ' ' });
    expect(empty.status).toBe(400);
    const replied = await admin.post(`/api/admin/complaints/${item.id}/reply`, {
      message: 'Your prize was posted today.\nTracking: AB123',
    });
    expect(replied.status, replied.text).toBe(200);
    expect(replied.body).toMatchObject({ status: 'responded', emailSent: true });
    const mail = await waitForMail(user.email, `Our reply to your complaint ${reference}`);
    expect(mail.text).toContain('Your prize was posted today.');
    expect(mail.text).toContain('Morwenna');
    expect(
      await db('mailLog').where({ recipient: user.email, template: 'complaint-reply', status: 'sent' }),
    ).toHaveLength(1);

    const mine = (await client.get('/api/complaints')).body[0];
    expect(mine).toMatchObject({ reference, status: 'responded' });
    expect(mine.replies).toEqual([
      { message: 'Your prize was posted today.\nTracking: AB123', createdAt: expect.any(String) },
    ]);
    expect(mine.replies[0]).not.toHaveProperty('adminUsername');

    const closed = await admin.post(`/api/admin/complaints/${item.id}/close`, {});
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('closed');
    expect((await client.get('/api/complaints')).body[0].status).toBe('closed');
    const late = await admin.post(`/api/admin/complaints/${item.id}/reply`, { message: 'More' });
    expect(late.status).toBe(409);
    expect(await db('complaintReplies').where({ complaintId: item.id })).toHaveLength(1);
    expect((await admin.post('/api/admin/complaints/99999999/close', {})).status).toBe(404);

    const audit = (
      await db('auditLog')
        .where({ entityType: 'complaint', entityId: String(item.id) })
        .orderBy('id')
    ).map((r: { action: string }) => r.action);
    expect(audit).toEqual(['complaint.replied', 'complaint.closed']);
  });

  it('an open complaint past its due date is overdue in the queue', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const { client } = await registeredClient(server.url);
    const { reference } = (await client.post('/api/complaints', { subject: 'Old', message: 'Still waiting' }))
      .body;
    await db('complaints')
      .where({ reference })
      .update({ dueAt: Date.now() - 1000 });
    const [item] = (await admin.get(`/api/admin/complaints?search=${reference}`)).body.complaints;
    expect(item).toMatchObject({ reference, overdue: true });
  });

  it('an unconfirmed address gets no acknowledgement, and one account or address cannot flood the queue', async () => {
    const { client, user } = await registeredClient(server.url);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await client.post('/api/complaints', {
        subject: `Spam ${i}`,
        message: 'Visit evil.example',
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.message).toMatch(/^You have sent several complaints recently\. Please try again in /);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    expect(Number((await db('complaints').where({ userId: user.id }).count({ n: '*' }))[0]!.n)).toBe(5);
    // The registration's confirmation link is the only mail that address was sent.
    expect(mailTo(server.database.dataDir, user.email).map((m) => m.subject)).toEqual([
      expect.stringMatching(/confirm your e-mail/i),
    ]);
  });

  it('the admin pages through every complaint, oldest due first, and finds one by its reference', async () => {
    const { client: admin } = await signedInAdmin(server.url);
    const { user } = await registeredClient(server.url);
    const now = Date.now();
    const rows = Array.from({ length: 520 }, (_, i) => ({
      reference: `CMP-PAGE${String(i).padStart(4, '0')}`,
      userId: user.id,
      orderId: null,
      subject: `Flood ${i}`,
      message: 'x',
      status: 'open',
      dueAt: now + (i + 1) * 60_000,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 100) await db('complaints').insert(rows.slice(i, i + 100));
    const genuine = (
      await db('complaints').insert({
        ...rows[0]!,
        reference: 'CMP-GENUINE2',
        subject: 'Genuine',
        dueAt: now + 999 * 86_400_000,
      })
    )[0];
    expect(genuine).toBeDefined();

    const first = await admin.get('/api/admin/complaints?status=open');
    expect(first.body).toMatchObject({ page: 1, pageSize: 25 });
    expect(first.body.total).toBeGreaterThanOrEqual(521);
    const dues = first.body.complaints.map((c: { dueAt: string }) => Date.parse(c.dueAt));
    expect(dues).toEqual([...dues].sort((a, b) => a - b));
    const last = await admin.get(`/api/admin/complaints?status=open&page=${first.body.totalPages}`);
    expect(last.body.complaints.map((c: { reference: string }) => c.reference)).toContain('CMP-GENUINE2');
    const found = await admin.get('/api/admin/complaints?search=cmp-genuine2');
    expect(found.body.complaints.map((c: { subject: string }) => c.subject)).toEqual(['Genuine']);
    expect((await admin.get('/api/admin/complaints?page=0')).status).toBe(400);
  });
});
