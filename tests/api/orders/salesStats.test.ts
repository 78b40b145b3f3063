import type { Knex } from 'knex';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SalesStatsSchema } from '../../../contract/salesStats';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const at = (text: string) => Date.parse(text);

describe.skipIf(engineUnavailable())(`GET /api/admin/stats/sales on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let first: number;
  let second: number;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
    first = await insertCompetition(db, { title: 'Stats car', ticketPricePence: 250 });
    second = await insertCompetition(db, { title: 'Stats cash', ticketPricePence: 100 });
    const userId = await insertUser(db);
    // 1 June 2026 is in British Summer Time: 23:30 UTC is 00:30 on 2 June in the UK.
    await paidOrder(db, userId, at('2026-06-01T10:15:00Z'), [[first, 250, 2]]);
    await paidOrder(db, userId, at('2026-06-01T10:45:00Z'), [
      [first, 250, 1],
      [second, 100, 3],
    ]);
    await paidOrder(db, userId, at('2026-06-01T23:30:00Z'), [[second, 100, 4]]);
    // Neither counts: one never paid, one cancelled after payment.
    await paidOrder(db, userId, at('2026-06-01T11:00:00Z'), [[first, 250, 5]], 'pending');
    await paidOrder(db, userId, at('2026-06-01T11:00:00Z'), [[first, 250, 5]], 'cancelled');
  });

  it('adds up tickets, revenue and orders per UK day, in SQL, the same on both engines', async () => {
    const res = await admin.get(
      '/api/admin/stats/sales?from=2026-05-31T23:00:00Z&to=2026-06-02T23:00:00Z&bucket=day',
    );
    expect(res.status, res.text).toBe(200);
    expect(v.is(SalesStatsSchema, res.body)).toBe(true);
    expect(res.body.timeZone).toBe('Europe/London');
    expect(res.body.series).toEqual([
      // UK midnight in summer is 23:00 UTC the day before.
      { start: '2026-05-31T23:00:00.000Z', tickets: 6, revenuePence: 1050, orders: 2 },
      { start: '2026-06-01T23:00:00.000Z', tickets: 4, revenuePence: 400, orders: 1 },
    ]);
    expect(res.body.totals).toEqual({ tickets: 10, revenuePence: 1450, orders: 3 });
    expect(res.body.competitions).toEqual([
      { competitionId: first, title: 'Stats car', tickets: 3, revenuePence: 750, orders: 2 },
      { competitionId: second, title: 'Stats cash', tickets: 7, revenuePence: 700, orders: 2 },
    ]);
  });

  it('gives every hour of the range, empty ones included', async () => {
    const res = await admin.get(
      '/api/admin/stats/sales?from=2026-06-01T09:00:00Z&to=2026-06-01T12:00:00Z&bucket=hour',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.series).toEqual([
      { start: '2026-06-01T09:00:00.000Z', tickets: 0, revenuePence: 0, orders: 0 },
      { start: '2026-06-01T10:00:00.000Z', tickets: 6, revenuePence: 1050, orders: 2 },
      { start: '2026-06-01T11:00:00.000Z', tickets: 0, revenuePence: 0, orders: 0 },
    ]);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = async (query: string) => {
      const res = await admin.get(`/api/admin/stats/sales?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      return res.body;
    };
    expect((await bad('to=2026-06-02T00:00:00Z')).details.fields.from).toBe('from is required');
    expect((await bad('from=yesterday&to=2026-06-02T00:00:00Z')).details.fields.from).toMatch(/ISO 8601/);
    expect((await bad('from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z&bucket=week')).message).toBe(
      "bucket must be 'hour' or 'day'",
    );
    expect((await bad('from=2026-06-02T00:00:00Z&to=2026-06-01T00:00:00Z')).message).toBe(
      'to must be after from',
    );
    expect((await bad('from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&bucket=hour')).message).toMatch(
      /too long/,
    );
  });

  it('is for admins only', async () => {
    const query = '/api/admin/stats/sales?from=2026-06-01T00:00:00Z&to=2026-06-02T00:00:00Z';
    const { client: customer } = await signedInCustomer(server.url);
    expect((await customer.get(query)).status).toBe(403);
    expect((await new TestClient(server.url).get(query)).status).toBe(401);
  });
});

/** An order paid at `paidAt` with lines of [competitionId, price in pence, quantity]. */
async function paidOrder(
  db: Knex,
  userId: number,
  paidAt: number,
  lines: Array<[number, number, number]>,
  status = 'completed',
) {
  const subtotal = lines.reduce((sum, [, price, quantity]) => sum + price * quantity, 0);
  const [orderId] = await db('orders').insert({
    userId,
    totalPence: subtotal,
    subtotalPence: subtotal,
    status,
    paymentProvider: 'sandbox',
    paidAt: status === 'pending' ? null : paidAt,
    createdAt: paidAt,
    updatedAt: paidAt,
  });
  await db('orderItems').insert(
    lines.map(([competitionId, price, quantity]) => ({
      orderId,
      competitionId,
      title: 'snapshot title',
      ticketPricePence: price,
      quantity,
      paidPence: price * quantity,
      selectedNumbers: JSON.stringify([]),
      createdAt: paidAt,
    })),
  );
}
