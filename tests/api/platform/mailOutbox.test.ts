import type { Knex } from 'knex';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { oweConfirmation } from '../../../api/orders/orderEmails';
import { EMAIL_TEMPLATES } from '../../../api/platform/email/registry';
import { createMailer } from '../../../api/platform/mailer';
import { formatOrderNumber } from '../../../contract/checkout';
import { buyWithCard, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { readOutbox } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The e-mail outbox (docs/emails.md#the-outbox): an e-mail owed by a committed fact is sent once,
// even when the first try fails right after COMMIT, and it carries one Message-ID whatever the
// number of tries. The worker's timer is off (OUTBOX_INTERVAL_MS=0): the tests drive it with
// drainOnce and their own clock, so nothing waits on a wall clock.

const RETRY_MS = 60_000;

const outboxRows = (db: Knex, kind: string) => db('mailOutbox').where({ kind }).orderBy('id');

describe.skipIf(engineUnavailable())(`mail outbox on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    {
      env: {
        // The first outbox send fails, as a mail server that is down would.
        FAULT_INJECTION: 'mail-send-fails@1',
        OUTBOX_INTERVAL_MS: '0',
        OUTBOX_RETRY_BASE_MS: String(RETRY_MS),
        OUTBOX_MAX_ATTEMPTS: '3',
      },
    },
  );
  const outbox = () => server.deps.mailer.outbox;

  it('delivers a confirmation whose send failed right after COMMIT, once, when the worker retries', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50, title: 'Outbox Hamper' });
    const { client, user } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, competitionId, [4, 9]);
    const toCustomer = () =>
      readOutbox(server.database.dataDir).filter(
        (m) => m.to.includes(user.email) && m.subject.includes('is confirmed'),
      );

    // The sale stands; its confirmation is owed, its first try failed and nothing went out.
    const [owed] = await outboxRows(db, 'order-confirmation').where({ subjectKey: `order:${orderId}` });
    expect(owed).toMatchObject({ status: 'pending', attempts: 1, recipient: user.email });
    expect(owed.lastError).toContain('mail-send-fails');
    expect(toCustomer()).toEqual([]);
    expect((await db('orders').where({ id: orderId }).first()).confirmationSentAt).toBeNull();

    // Not due yet: the next try waits OUTBOX_RETRY_BASE_MS.
    expect(await outbox().drainOnce(Date.now())).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await outbox().drainOnce(Date.now() + RETRY_MS + 1)).toEqual({ sent: 1, retried: 0, failed: 0 });

    const mails = toCustomer();
    expect(mails.map((m) => m.subject)).toEqual([
      `Your Westcountry Prizes order ${formatOrderNumber(orderId)} is confirmed`,
    ]);
    expect(mails[0]!.text).toContain('Outbox Hamper');
    const [sent] = await outboxRows(db, 'order-confirmation').where({ subjectKey: `order:${orderId}` });
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, props: null });
    expect(mails[0]!.messageId).toBe(sent.messageId);
    expect((await db('orders').where({ id: orderId }).first()).confirmationSentAt).not.toBeNull();

    // Nothing is owed twice: a later pass sends nothing.
    expect(await outbox().drainOnce(Date.now() + 10 * RETRY_MS)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(toCustomer()).toHaveLength(1);
  });

  it('owes one e-mail per order however often the sale is reported (a retried transaction, a repeated webhook)', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    const { client } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, competitionId, [1]);
    for (let i = 0; i < 3; i++) await db.transaction((trx) => oweConfirmation(trx, orderId, Date.now()));
    expect(await outboxRows(db, 'order-confirmation').where({ subjectKey: `order:${orderId}` })).toHaveLength(
      1,
    );
  });

  it('lets only one of two processes send a row, and takes over a row whose lease ran out', async () => {
    const config = server.deps.config;
    const logger = pino({ level: 'silent' });
    // A second process: its own mailer and outbox over the same database and outbox folder.
    const other = createMailer(config, db, logger, { templates: EMAIL_TEMPLATES }).outbox;
    // Four owed e-mails whose first tries were cut off: pending, lease free.
    const now = Date.now();
    const subjects = [1, 2, 3, 4].map((i) => `lease-test:${i}`);
    await db('mailOutbox').insert(
      subjects.map((subjectKey) => ({
        kind: 'password-changed',
        subjectKey,
        recipient: `${subjectKey.replace(':', '')}@example.com`,
        props: JSON.stringify({ name: 'Pat', changedAt: now }),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })),
    );
    const later = Date.now() + 1000;
    const [a, b] = await Promise.all([outbox().drainOnce(later), other.drainOnce(later)]);
    expect(a.sent + b.sent).toBe(4);

    // A row claimed by a process that died: left alone during its lease, taken over after it.
    const [row] = await outboxRows(db, 'password-changed').where({ subjectKey: subjects[0] });
    const lease = config.outbox.leaseMs;
    await db('mailOutbox')
      .where({ id: row.id })
      .update({
        status: 'pending',
        claimedUntil: later + lease,
        props: JSON.stringify({ name: 'Pat', changedAt: now }),
      });
    expect((await other.drainOnce(later + 1)).sent).toBe(0);
    expect((await other.drainOnce(later + lease + 1)).sent).toBe(1);
    // Every try carried the row's one Message-ID.
    const ids = readOutbox(server.database.dataDir).map((m) => m.messageId);
    expect(ids.filter((id) => id === row.messageId)).toHaveLength(1);
  });

  it('gives up after OUTBOX_MAX_ATTEMPTS into a failed state the metrics show', async () => {
    const now = Date.now();
    await db('mailOutbox').insert({
      kind: 'no-such-template',
      subjectKey: 'test:1',
      recipient: 'nobody@example.com',
      props: '{}',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    });
    expect(await outbox().drainOnce(now)).toMatchObject({ retried: 1 });
    expect(await outbox().drainOnce(now + RETRY_MS)).toMatchObject({ retried: 1 });
    expect(await outbox().drainOnce(now + 3 * RETRY_MS)).toMatchObject({ failed: 1 });
    const [row] = await outboxRows(db, 'no-such-template');
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(row.lastError).toContain('no e-mail template');
    expect(await outbox().drainOnce(now + 100 * RETRY_MS)).toEqual({ sent: 0, retried: 0, failed: 0 });
    const scraped = await server.deps.metrics.exposition();
    expect(scraped).toMatch(/^mail_outbox_failed 1$/m);
    expect(scraped).toMatch(/^mail_outbox_sends_total\{result="failed"\} 1$/m);
  });

  it('drops the rows of a deleted account: nothing owed is sent to it, its address leaves the table', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    const { client, user, password } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, competitionId, [7]);
    const now = Date.now();
    // A later e-mail still owed to the account when it is deleted.
    await db('mailOutbox').insert({
      kind: 'password-changed',
      subjectKey: `erase-test:${user.id}`,
      userId: user.id,
      recipient: user.email,
      props: JSON.stringify({ name: 'Pat', changedAt: now }),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now + RETRY_MS,
      createdAt: now,
    });
    expect(await db('mailOutbox').where({ userId: user.id })).toHaveLength(2);
    const res = await client.request('DELETE', '/api/account', { password });
    expect(res.status, res.text).toBe(200);
    expect(await db('mailOutbox').where({ userId: user.id })).toEqual([]);
    expect(await db('mailOutbox').where({ recipient: user.email })).toEqual([]);
    expect(await outbox().drainOnce(now + 2 * RETRY_MS)).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await db('orders').where({ id: orderId }).first()).toBeDefined();
  });
});
