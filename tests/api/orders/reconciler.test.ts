import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReconcilerDeps,
  reconcilePayments,
  reconcilerDepsOf,
} from '../../../api/orders/paymentReconciler';
import type { SandboxGateway } from '../../../api/payments/sandbox';
import { signedInAdmin } from '../../support/admin';
import {
  customer,
  emailsFor,
  expectTicketInvariants,
  hold,
  orderRow,
  startCheckout,
  ticketsOf,
} from '../../support/checkout';
import { type FakeStripe, useStripeTestServer } from '../../support/fakeStripe';
import { insertCompetition } from '../../support/fixtures';
import { collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// The payment reconciler (api/orders/paymentReconciler.ts): a payment the gateway took whose
// order never got fulfilled (the process died after the capture, the webhook was lost) is settled
// later through fulfilment, exactly once however many processes reconcile at the same time.

const depsOf = (server: TestServer, overrides: Partial<ReconcilerDeps> = {}): ReconcilerDeps => ({
  ...reconcilerDepsOf(server.deps, server.gateway),
  graceMs: 0,
  leaseMs: 5000,
  ...overrides,
});

const intentIdOf = (clientSecret: string) => clientSecret.split('_secret_')[0]!;

describe.skipIf(engineUnavailable())(`payment reconciler with the sandbox on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let sandbox: SandboxGateway;
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    sandbox = server.gateway as SandboxGateway;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server?.stop();
  });

  /**
   * A customer checks out and the sandbox takes the money, then the process "dies": nothing
   * after the capture runs, so the order is pending with the payment taken.
   */
  async function capturedButNotFulfilled(competitionId: number, numbers: number[]) {
    const { client, user } = await customer(server.url, competitionId);
    await hold(client, competitionId, numbers);
    const started = await startCheckout(client);
    const intentId = intentIdOf(started.clientSecret!);
    expect(await sandbox.capture(intentId)).toBe(true);
    return { client, user, orderId: started.orderId, orderNumber: started.orderNumber, intentId };
  }

  it('fulfils a payment captured just before a crash, once, with its confirmation e-mail, and counts it', async () => {
    const id = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 250 });
    const { orderId, orderNumber } = await capturedButNotFulfilled(id, [4, 9]);
    expect((await orderRow(db, orderId)).status).toBe('pending');
    const { client: admin } = await signedInAdmin(server.url);
    const adminSocket = await connectSocket(server.url, admin.cookieHeader);
    sockets.push(adminSocket);
    const stats = collect(adminSocket, 'admin:stats');

    const run = await reconcilePayments(depsOf(server));
    expect(run.settled).toEqual([expect.objectContaining({ orderId, outcome: 'fulfilled' })]);
    expect(await orderRow(db, orderId)).toMatchObject({ status: 'completed', refundedAt: null });
    expect((await ticketsOf(db, id)).filter((t) => t.status === 'sold')).toEqual([
      { number: 4, status: 'sold', orderId, userId: expect.any(Number) },
      { number: 9, status: 'sold', orderId, userId: expect.any(Number) },
    ]);
    expect(emailsFor(server.database.dataDir, orderNumber)).toHaveLength(1);
    await expectTicketInvariants(db);

    // Settled is settled: the next run (or another process) finds nothing to do.
    expect((await reconcilePayments(depsOf(server))).settled).toEqual([]);
    expect(emailsFor(server.database.dataDir, orderNumber)).toHaveLength(1);
    const dashboard = await admin.get('/api/admin/dashboard');
    expect(dashboard.body.reconciledPaymentCount).toBe(1);
    // Admins watching the dashboard see the count move with the order.
    await waitFor(
      () => stats.some((s) => s.reconciledPaymentCount === 1),
      3000,
      'admin:stats with the count',
    );
    expect(await db('paymentReconciliations').where({ orderId }).first()).toMatchObject({
      provider: 'sandbox',
      outcome: 'fulfilled',
      settledAt: expect.any(Number),
    });
  });

  it('leaves a payment captured within the grace period to the request that took it', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { orderId } = await capturedButNotFulfilled(id, [1]);
    const run = await reconcilePayments(depsOf(server, { graceMs: 60_000 }));
    expect(run.settled.map((s) => s.orderId)).not.toContain(orderId);
    expect((await orderRow(db, orderId)).status).toBe('pending');
    // Past the grace period it is settled.
    await reconcilePayments(depsOf(server));
    expect((await orderRow(db, orderId)).status).toBe('completed');
  });

  it('refunds in full, with an e-mail saying why, when the tickets can no longer be sold', async () => {
    const id = await insertCompetition(db, {
      totalTickets: 50,
      ticketPricePence: 300,
      title: 'Reconciled Rolex',
    });
    const { orderId, orderNumber, intentId } = await capturedButNotFulfilled(id, [3]);
    // While the process was down the competition was taken off sale.
    await db('competitions').where({ id }).update({ status: 'archived' });

    const run = await reconcilePayments(depsOf(server));
    const reason = '"Reconciled Rolex" closed before your payment arrived, so the payment has been refunded.';
    expect(run.settled).toEqual([{ orderId, intentId, outcome: 'refunded', detail: reason }]);
    expect(await orderRow(db, orderId)).toMatchObject({
      status: 'cancelled',
      refundReason: reason,
      refundedPence: 300,
      refundedAt: expect.any(Number),
    });
    expect(await db('sandboxRefunds').where({ paymentIntentId: intentId }).select('amountPence')).toEqual([
      { amountPence: 300 },
    ]);
    expect((await ticketsOf(db, id)).filter((t) => t.status === 'sold')).toEqual([]);
    // Unfold header lines and undo quoted-printable soft line breaks before reading it.
    const email = emailsFor(server.database.dataDir, orderNumber)[0]!
      .replace(/=\r?\n/g, '')
      .replace(/\r?\n[ \t]+/g, ' ');
    expect(email).toContain(
      `Subject: Your Westcountry Prizes order ${orderNumber} has been cancelled and refunded`,
    );
    expect(email).toContain('3.00 has been refunded to the card you paid with.');
    expect(email).toContain('closed before your payment arrived');
    expect((await reconcilePayments(depsOf(server))).settled).toEqual([]);
  });

  it('takes over a claim left by a process that died, but never one still being worked on', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { orderId, intentId } = await capturedButNotFulfilled(id, [12]);
    const now = Date.now();
    await db('paymentReconciliations').insert({
      provider: 'sandbox',
      paymentIntentId: intentId,
      orderId,
      foundAt: now,
      claimedAt: now,
      claimToken: 'another-process',
    });
    expect((await reconcilePayments(depsOf(server))).settled).toEqual([]);
    expect((await orderRow(db, orderId)).status).toBe('pending');

    // That process died: its lease runs out and this one settles the payment.
    await db('paymentReconciliations')
      .where({ paymentIntentId: intentId })
      .update({ claimedAt: now - 6000 });
    const run = await reconcilePayments(depsOf(server));
    expect(run.settled).toEqual([expect.objectContaining({ orderId, outcome: 'fulfilled' })]);
    expect((await orderRow(db, orderId)).status).toBe('completed');
    expect(await db('paymentReconciliations').where({ paymentIntentId: intentId }).count({ n: '*' })).toEqual(
      [{ n: 1 }],
    );
  });

  it('settles each payment exactly once when several reconcilers race', async () => {
    const id = await insertCompetition(db, { totalTickets: 100, ticketPricePence: 150 });
    const stuck = [];
    for (let i = 0; i < 6; i++) stuck.push(await capturedButNotFulfilled(id, [20 + i * 2, 21 + i * 2]));
    const before = Number((await db('paymentReconciliations').count({ n: '*' }).first())!.n);

    const runs = await Promise.all([1, 2, 3].map(() => reconcilePayments(depsOf(server))));
    const settled = runs.flatMap((r) => r.settled.map((s) => s.orderId)).sort((a, b) => a - b);
    expect(settled).toEqual(stuck.map((s) => s.orderId).sort((a, b) => a - b));
    for (const s of stuck) {
      expect((await orderRow(db, s.orderId)).status).toBe('completed');
      expect(emailsFor(server.database.dataDir, s.orderNumber)).toHaveLength(1);
    }
    const sold = (await ticketsOf(db, id)).filter((t) => t.status === 'sold');
    expect(sold).toHaveLength(12);
    expect((await db('competitions').where({ id }).first('ticketsSold')).ticketsSold).toBe(12);
    expect(Number((await db('paymentReconciliations').count({ n: '*' }).first())!.n)).toBe(before + 6);
    await expectTicketInvariants(db);
  });
});

describe.skipIf(engineUnavailable())(`payment reconciler with Stripe on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let stripe: FakeStripe;
  useStripeTestServer((started, fake) => {
    server = started;
    stripe = fake;
    db = started.database.db;
  });

  it('fulfils a Stripe payment whose webhook never came, asking Stripe through the SDK', async () => {
    const id = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 200 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [5]);
    const { orderId, orderNumber, clientSecret } = await startCheckout(client);
    const intentId = intentIdOf(clientSecret!);
    stripe.succeed(intentId); // the customer paid; no webhook is ever delivered

    const run = await reconcilePayments(depsOf(server));
    expect(run.settled).toEqual([{ orderId, intentId, outcome: 'fulfilled' }]);
    expect(stripe.requests).toContainEqual(
      expect.objectContaining({ method: 'GET', path: `/v1/payment_intents/${intentId}` }),
    );
    expect((await orderRow(db, orderId)).status).toBe('completed');
    expect(emailsFor(server.database.dataDir, orderNumber)).toHaveLength(1);
    expect((await reconcilePayments(depsOf(server))).settled).toEqual([]);
  });

  it('leaves an unpaid Stripe payment open, and cancels it at Stripe once abandoned so it can never take money', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const { client } = await customer(server.url, id);
    await hold(client, id, [6]);
    const { orderId, clientSecret } = await startCheckout(client);
    const intentId = intentIdOf(clientSecret!);

    expect(await reconcilePayments(depsOf(server))).toEqual({ settled: [], closed: [], refundsSent: [] });
    expect(stripe.intents.get(intentId)!.status).toBe('requires_payment_method');

    const run = await reconcilePayments(depsOf(server, { abandonAfterMs: 0 }));
    expect(run).toEqual({ settled: [], closed: [orderId], refundsSent: [] });
    expect(stripe.intents.get(intentId)!.status).toBe('canceled');
    expect((await orderRow(db, orderId)).status).toBe('cancelled');
    expect(await db('paymentReconciliations').where({ orderId })).toEqual([]);
  });
});
