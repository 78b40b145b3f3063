import type { Knex } from 'knex';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { sendCancellationNotice } from '../../../api/orders/orderEmails';
import { formatOrderNumber } from '../../../contract/checkout';
import { signedInAdmin } from '../../support/admin';
import { card, customer, grantCredit, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// 'Your order has been cancelled (and refunded)': the amount and where it went, sent once.

describe.skipIf(engineUnavailable())(`order cancelled and refunded e-mails on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  const pay = (client: TestClient, clientSecret: string) =>
    client.post('/api/payments/sandbox/confirm', { clientSecret, ...card() });
  const cancellations = (email: string) =>
    mailTo(server.database.dataDir, email).filter((m) => m.subject.includes('has been cancelled'));

  it('an admin cancels a paid order: the card part and the site credit part, each with its amount', async () => {
    const id = await insertCompetition(db, { title: 'Cancelled prize', ticketPricePence: 500 });
    const { client, user } = await customer(server.url, id);
    await grantCredit(db, user.id, 300);
    await hold(client, id, [4, 9]);
    const intent = await startCheckout(client, { useCredit: true });
    expect(intent.creditApplied).toBe(3);
    expect((await pay(client, intent.clientSecret!)).status).toBe(200);

    const res = await admin.post(`/api/admin/orders/${intent.orderId}/cancel`, {
      reason: 'Cancelled in a test',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('refunded');
    const mails = cancellations(user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(
      `Your Westcountry Prizes order ${formatOrderNumber(intent.orderId)} has been cancelled and refunded`,
    );
    expect(mail!.text).toContain('Our team gave this reason: Cancelled in a test');
    expect(mail!.text).toContain('£7.00 has been refunded to the card you paid with.');
    expect(mail!.text).toContain('£3.00 has been returned to your site credit.');
    expect(mail!.html).toContain('£7.00 has been refunded to the card you paid with.');
    expect(
      await db('mailLog').where({ recipient: user.email, template: 'order-cancelled', status: 'sent' }),
    ).toHaveLength(1);
    expect(
      (await db('orders').where({ id: intent.orderId }).first()).cancellationNoticeSentAt,
    ).not.toBeNull();
  });

  it('a payment that cannot buy its tickets is refunded to the card, and the customer is told once', async () => {
    const id = await insertCompetition(db, { title: 'Withdrawn prize', ticketPricePence: 250 });
    const { client, user } = await customer(server.url, id);
    await hold(client, id, [7]);
    const intent = await startCheckout(client);
    await db('competitions').where({ id }).update({ status: 'archived' });
    const paid = await pay(client, intent.clientSecret!);
    expect(paid.status).toBe(409);
    // The refund retried (as the next delivery of a payment whose refund was pending does) writes
    // no second e-mail.
    await sendCancellationNotice(
      { db, mailer: server.deps.mailer, logger: pino({ level: 'silent' }) },
      intent.orderId,
      { reason: 'again', refunds: [], cardRefundPending: false },
    );

    const mails = cancellations(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('"Withdrawn prize" closed before your payment arrived');
    expect(mails[0]!.text).toContain('£2.50 has been refunded to the card you paid with.');
    expect(mails[0]!.text).not.toContain('site credit');
  });
});
