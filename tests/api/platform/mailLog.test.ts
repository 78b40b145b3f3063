import type { Knex } from 'knex';
import pino from 'pino';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { P } from '../../../api/platform/email/layout';
import { defineEmail } from '../../../api/platform/email/template';
import { passwordChangedEmail } from '../../../api/platform/email/templates/accounts';
import { createMailer } from '../../../api/platform/mailer';
import { buyWithCard, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { mailTo, readOutbox } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The mail log behind 'E-mails sent' (GET /api/admin/emails), the outbox kept in development, and
// the marketing consent guard in the mailer.

/** A marketing e-mail, as a future newsletter would be defined. */
const offerEmail = defineEmail<{ name: string }>({
  name: 'test-offer',
  category: 'marketing',
  subject: () => 'Double tickets this weekend',
  Body: ({ props }) => createElement(P, null, `Hello ${props.name}, double tickets this weekend.`),
});

describe.skipIf(engineUnavailable())(`mail log and marketing guard on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  const logOf = (recipient: string) => db('mailLog').where({ recipient }).orderBy('id');

  it('records every e-mail sent, and keeps the .eml file in the outbox', async () => {
    const id = await insertCompetition(db, { title: 'Logged prize' });
    const { client, user } = await signedInCustomer(server.url);
    const before = Date.now();
    const orderId = await buyWithCard(client, id, [3]);
    const orderNumber = `ORD-${String(orderId).padStart(10, '0')}`;
    const rows = await logOf(user.email);
    // Registration sent the confirmation link first; then the order's confirmation.
    expect(rows.map((r: { template: string }) => r.template)).toEqual(['verification', 'order-confirmation']);
    const confirmation = rows[1];
    expect(confirmation).toMatchObject({
      userId: user.id,
      recipient: user.email,
      subject: `Your Westcountry Prizes order ${orderNumber} is confirmed`,
      template: 'order-confirmation',
      status: 'sent',
      error: null,
    });
    expect(Number(confirmation.createdAt)).toBeGreaterThanOrEqual(before);
    const mail = mailTo(server.database.dataDir, user.email).find((m) => m.subject === confirmation.subject);
    expect(mail).toBeDefined();
    expect(mail?.text).toContain('support@westcountryprizes.co.uk');
  });

  it('records a failed send with the reason, and the caller still hears of the failure', async () => {
    const userId = await insertUser(db, { email: 'unlucky@example.com' });
    // Nothing listens on port 9 here: the SMTP connection is refused.
    const broken = createMailer(
      { ...server.deps.config, smtpUrl: 'smtp://127.0.0.1:9' },
      db,
      pino({ level: 'silent' }),
    );
    await expect(
      broken.send(
        passwordChangedEmail,
        { to: 'unlucky@example.com', userId },
        { name: 'Una', changedAt: Date.now() },
      ),
    ).rejects.toThrow();
    const rows = await logOf('unlucky@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId,
      template: 'password-changed',
      subject: 'Your Westcountry Prizes password has been changed',
      status: 'failed',
    });
    expect(rows[0].error).toMatch(/ECONNREFUSED|connect/i);
  });

  it("'E-mails sent' is for admins only: 401 signed out, 403 for a customer", async () => {
    const visitor = await fetch(`${server.url}/api/admin/emails`);
    expect(visitor.status).toBe(401);
    const { client } = await signedInCustomer(server.url);
    const customer = await client.get('/api/admin/emails');
    expect(customer.status).toBe(403);
    expect(customer.body).not.toBeInstanceOf(Array);
  });

  it('lists the newest 200 e-mails first, and finds one recipient', async () => {
    const t = Date.now() + 60_000;
    await db('mailLog').insert(
      Array.from({ length: 205 }, (_, i) => ({
        recipient: i === 204 ? 'Findme.Person@Example.com' : `bulk${i}@example.com`,
        subject: `Bulk ${i}`,
        template: 'order-confirmation',
        status: i === 203 ? 'failed' : 'sent',
        error: i === 203 ? 'connection refused' : null,
        createdAt: t + i,
      })),
    );
    const res = await admin.get('/api/admin/emails');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toHaveLength(200);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      recipient: 'Findme.Person@Example.com',
      userId: null,
      subject: 'Bulk 204',
      template: 'order-confirmation',
      status: 'sent',
      error: null,
      sentAt: new Date(t + 204).toISOString(),
    });
    expect(res.body[1]).toMatchObject({ subject: 'Bulk 203', status: 'failed', error: 'connection refused' });
    expect(res.body[199].subject).toBe('Bulk 5');

    const found = await admin.get('/api/admin/emails?search=findme.person@');
    expect(found.body.map((r: { subject: string }) => r.subject)).toEqual(['Bulk 204']);
    // LIKE wildcards are matched literally.
    expect((await admin.get('/api/admin/emails?search=%25')).body).toEqual([]);
    expect((await admin.get(`/api/admin/emails?search=${'x'.repeat(255)}`)).status).toBe(400);
  });

  it('never sends marketing to anyone who has not opted in', async () => {
    const optedOut = await signedInCustomer(server.url);
    const optedIn = await signedInCustomer(server.url, { marketingEmails: true });
    const gone = await signedInCustomer(server.url, { marketingEmails: true });
    await db('users').where({ id: gone.user.id }).update({ deletedAt: Date.now() });
    // Marketing goes only to a confirmed address (tests/api/accounts/marketingEmails.test.ts).
    await db('users').where({ id: optedIn.user.id }).update({ emailVerifiedAt: Date.now() });
    const send = (to: string, userId: number | null) =>
      server.deps.mailer.send(offerEmail, { to, userId }, { name: 'Pat' });
    const outboxBefore = readOutbox(server.database.dataDir).length;

    expect(await send(optedOut.user.email, optedOut.user.id)).toEqual({ status: 'suppressed' });
    expect(await send(gone.user.email, gone.user.id)).toEqual({ status: 'suppressed' });
    // An address without an account cannot have consented.
    expect(await send('stranger@example.com', null)).toEqual({ status: 'suppressed' });
    expect(readOutbox(server.database.dataDir)).toHaveLength(outboxBefore);
    expect(await db('mailLog').where({ template: 'test-offer' })).toEqual([]);

    expect((await send(optedIn.user.email, optedIn.user.id)).status).toBe('sent');
    const [mail] = mailTo(server.database.dataDir, optedIn.user.email).filter(
      (m) => m.subject === 'Double tickets this weekend',
    );
    expect(mail?.text).toContain('untick it under Privacy');

    // Withdrawing consent stops the next one.
    const off = await optedIn.client.request('PUT', '/api/account/preferences', { marketingEmails: false });
    expect(off.status, off.text).toBe(200);
    expect(await send(optedIn.user.email, optedIn.user.id)).toEqual({ status: 'suppressed' });
    expect(await db('mailLog').where({ template: 'test-offer' })).toHaveLength(1);
  });
});
