import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { reconcilePayments, reconcilerDepsOf } from '../../../api/orders/paymentReconciler';
import { buyWithCard, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// A card refund of some tickets of an order is owed as a row in the transaction that gives the
// tickets back (api/orders/backOffice/owedRefunds.ts): when the gateway fails, the money is not
// lost; the payment reconciler sends it, once, with the row's idempotency key.

describe.skipIf(engineUnavailable())(`owed card refunds on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    // The first partial card refund throws, as a gateway that is down would; the reconciler only
    // runs when the test calls it.
    { env: { FAULT_INJECTION: 'partial-refund-fails@1', RECONCILE_INTERVAL_MS: '0' } },
  );
  const reconcile = () =>
    reconcilePayments({ ...reconcilerDepsOf(server.deps, server.gateway), graceMs: 0, leaseMs: 5000 });

  it('a failed partial card refund stays owed, is sent by the reconciler exactly once, and a cancellation then refunds the rest', async () => {
    const comp = await insertCompetition(db, { totalTickets: 30, ticketPricePence: 250 });
    const { client } = await signedInCustomer(server.url);
    const orderId = await buyWithCard(client, comp, [1, 2, 3]);
    const intent = (await db('orders').where({ id: orderId }).first()).paymentIntentId;
    const refundsAtGateway = async () =>
      (await db('sandboxRefunds').where({ paymentIntentId: intent }).orderBy('createdAt')).map(
        (r: { amountPence: number }) => Number(r.amountPence),
      );

    const res = await admin.post(`/api/admin/orders/${orderId}/refund-tickets`, {
      competitionId: comp,
      numbers: [2],
      reason: 'Bought by mistake',
      refundTo: 'card',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.refund).toBe('pending');
    expect(res.body.message).toContain('retried automatically');
    // The ticket is back on sale and the money is owed, as a row; the gateway has paid nothing.
    const sold = await db('tickets').where({ competitionId: comp, status: 'sold' }).orderBy('number');
    expect(sold.map((t: { number: number }) => Number(t.number))).toEqual([1, 3]);
    const [owed] = await db('orderRefunds').where({ orderId });
    expect(owed).toMatchObject({ amountPence: 250, status: 'owed', attempts: 1 });
    expect(owed.lastError).toContain('partial-refund-fails');
    expect(await refundsAtGateway()).toEqual([]);
    // The admin's order shows what is still owed.
    const cardRefunds = async () => (await admin.get(`/api/admin/orders/${orderId}`)).body.cardRefunds;
    expect(await cardRefunds()).toEqual([
      expect.objectContaining({ amount: 2.5, status: 'owed', sentAt: null }),
    ]);

    // The reconciler sends it; a second run finds nothing more to send.
    expect((await reconcile()).refundsSent).toEqual([owed.id]);
    expect((await reconcile()).refundsSent).toEqual([]);
    expect(await db('orderRefunds').where({ id: owed.id }).first()).toMatchObject({ status: 'sent' });
    expect(await refundsAtGateway()).toEqual([250]);
    expect(await cardRefunds()).toEqual([expect.objectContaining({ amount: 2.5, status: 'sent' })]);

    // Sent again by hand with the same key (a success we failed to record): the gateway pays once.
    await server.gateway.refund({
      intentId: intent,
      amountPence: 250,
      reason: 'again',
      orderId,
      idempotencyKey: owed.idempotencyKey,
    });
    expect(await refundsAtGateway()).toEqual([250]);

    // Cancelling the order refunds what is left: the card gets back exactly what it paid.
    const cancelled = await admin.post(`/api/admin/orders/${orderId}/cancel`, {
      reason: 'Competition withdrawn',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await refundsAtGateway()).toEqual([250, 500]);
  });
});
