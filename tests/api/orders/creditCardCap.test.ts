import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { claimCardFunding } from '../../../api/accounts/protection/creditCardCap';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The credit-card cap (DCMS prize-draw code: credit cards capped at £250 a month per player), with
// the sandbox's test cards: 4242… is a credit card, 4000 0566 5566 5556 a debit card.

const CREDIT = '4242 4242 4242 4242';
const DEBIT = '4000 0566 5566 5556';
const CAP_MESSAGE = 'Credit card payments are limited to £250 a month. Use a debit card or site credit.';

describe.skipIf(engineUnavailable())(`credit-card cap on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const pay = (client: TestClient, clientSecret: string | null, cardNumber: string) =>
    client.post('/api/payments/sandbox/confirm', { clientSecret, ...card({ cardNumber }) });

  it('credit-card payments count towards £250 a month; over it nothing is charged and a debit card pays', async () => {
    const comp = await insertCompetition(db, { ticketPricePence: 10_000, totalTickets: 20 });
    const { client, user } = await customer(server.url, comp);

    await hold(client, comp, [1, 2]);
    const first = await startCheckout(client);
    const paid = await pay(client, first.clientSecret, CREDIT);
    expect(paid.status, paid.text).toBe(200);
    expect(await db('orders').where({ id: first.orderId }).first('cardFunding', 'status')).toEqual({
      cardFunding: 'credit',
      status: 'completed',
    });

    await hold(client, comp, [3]);
    const second = await startCheckout(client);
    const refused = await pay(client, second.clientSecret, CREDIT);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'credit_card_cap',
      message: CAP_MESSAGE,
      details: { capPence: 25_000, leftPence: 5_000 },
    });
    // Nothing moved: the payment is still open and the order unpaid, its numbers still held.
    const intent = await db('sandboxPaymentIntents').where({ orderId: second.orderId }).first('status');
    expect(intent.status).toBe('requires_payment_method');
    expect(await db('orders').where({ id: second.orderId }).first('status', 'cardFunding')).toEqual({
      status: 'pending',
      cardFunding: null,
    });
    expect(await db('tickets').where({ competitionId: comp, number: 3 }).first('status', 'userId')).toEqual({
      status: 'reserved',
      userId: user.id,
    });

    const debit = await pay(client, second.clientSecret, DEBIT);
    expect(debit.status, debit.text).toBe(200);
    expect(await db('orders').where({ id: second.orderId }).first('cardFunding', 'status')).toEqual({
      cardFunding: 'debit',
      status: 'completed',
    });
  });

  it('exactly £250 on a credit card is allowed; a cancelled order does not count', async () => {
    const comp = await insertCompetition(db, { ticketPricePence: 12_500, totalTickets: 20 });
    const { client, user } = await customer(server.url, comp);
    await hold(client, comp, [1, 2]);
    const order = await startCheckout(client);
    expect((await pay(client, order.clientSecret, CREDIT)).status).toBe(200);
    // As if an admin had cancelled and refunded it: no longer spent.
    await db('orders').where({ id: order.orderId }).update({ status: 'cancelled' });
    await hold(client, comp, [3]);
    const next = await startCheckout(client);
    expect((await pay(client, next.clientSecret, CREDIT)).status).toBe(200);
    const completed = await db('orders').where({ userId: user.id, status: 'completed' });
    expect(completed.map((o: { totalPence: number }) => Number(o.totalPence))).toEqual([12_500]);
  });

  it('parallel confirmations never take a credit card over the cap', async () => {
    const comps = await Promise.all(
      [1, 2, 3, 4].map(() => insertCompetition(db, { ticketPricePence: 10_000, totalTickets: 20 })),
    );
    const { client, user } = await customer(server.url, ...comps);
    await hold(client, comps[0]!, [1, 2]);
    const first = await startCheckout(client);
    expect((await pay(client, first.clientSecret, CREDIT)).status).toBe(200);
    // £200 spent: each of these £100 payments alone would fit under £250 only once.
    const attempts = await Promise.all(
      comps.slice(1).map(async (c) => {
        await hold(client, c, [1]);
        const res = await client.post('/api/create-payment-intent', { forceNew: false });
        if (res.status !== 200) return res.status;
        return (await pay(client, res.body.clientSecret, CREDIT)).status;
      }),
    );
    for (const status of attempts) expect([200, 400, 409]).toContain(status);
    const credit = (await db('orders')
      .where({ userId: user.id, cardFunding: 'credit', status: 'completed' })
      .sum({ total: 'totalPence' })
      .first()) as { total: number | string };
    expect(Number(credit.total)).toBeLessThanOrEqual(25_000);
    // Whatever was charged is also exactly what was sold: no payment taken without its order.
    const captured = await db('sandboxPaymentIntents')
      .join('orders', 'orders.id', 'sandboxPaymentIntents.orderId')
      .where('orders.userId', user.id)
      .where('sandboxPaymentIntents.status', 'succeeded')
      .whereNot('orders.status', 'completed');
    expect(captured).toEqual([]);
  });

  it('claims racing for one customer queue on their row: never more than the cap on credit cards', async () => {
    const { user } = await customer(server.url);
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [id] = await db('orders').insert({
        userId: user.id,
        paymentProvider: 'sandbox',
        subtotalPence: 10_000,
        creditAppliedPence: 0,
        totalPence: 10_000,
        currency: 'gbp',
        status: 'pending',
        refundedPence: 0,
        createdAt: now,
        updatedAt: now,
      });
      ids.push(Number(id));
    }
    const results = await Promise.allSettled(
      ids.map((orderId) =>
        claimCardFunding(db, { orderId, userId: user.id, funding: 'credit', capPence: 25_000 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as Error).message).toBe(CAP_MESSAGE);
    }
    const claimed = await db('orders').where({ userId: user.id, cardFunding: 'credit' }).whereIn('id', ids);
    expect(claimed).toHaveLength(2);
  });

  it('counts a payment in the UK month it was paid, not the month its order was made', async () => {
    const { user } = await customer(server.url);
    // Made at 23:50 on 31 October, paid at 00:05 on 1 November (GMT: London is on UTC then).
    const madeInOctober = Date.parse('2026-10-31T23:50:00Z');
    const paidInNovember = Date.parse('2026-11-01T00:05:00Z');
    const order = {
      userId: user.id,
      paymentProvider: 'sandbox',
      subtotalPence: 20_000,
      creditAppliedPence: 0,
      totalPence: 20_000,
      currency: 'gbp',
      refundedPence: 0,
      cardFunding: 'credit',
    };
    await db('orders').insert({
      ...order,
      status: 'completed',
      paidAt: paidInNovember,
      createdAt: madeInOctober,
      updatedAt: paidInNovember,
    });
    const [next] = await db('orders').insert({
      ...order,
      totalPence: 10_000,
      subtotalPence: 10_000,
      cardFunding: null,
      status: 'pending',
      createdAt: paidInNovember,
      updatedAt: paidInNovember,
    });
    // £200 paid in November already: £100 more on a credit card would pass £250.
    const claim = claimCardFunding(
      db,
      { orderId: Number(next), userId: user.id, funding: 'credit', capPence: 25_000 },
      Date.parse('2026-11-01T00:10:00Z'),
    );
    await expect(claim).rejects.toThrow(CAP_MESSAGE);
    // In December the November payment no longer counts.
    await claimCardFunding(
      db,
      { orderId: Number(next), userId: user.id, funding: 'credit', capPence: 25_000 },
      Date.parse('2026-12-01T00:10:00Z'),
    );
    expect(
      (
        await db('orders')
          .where({ id: Number(next) })
          .first('cardFunding')
      ).cardFunding,
    ).toBe('credit');
  });
});
