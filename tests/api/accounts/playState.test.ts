import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { playRefusal, ukMonthStart } from '../../../contract/protection';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Issue 39 §7: GET /api/account/play-state tells the competition page and the cart, before Buy
// Now, that the customer is on a break (until when) or at their spend limit (and when more can be
// spent), so they are not refused only after the skill question.

const DEBIT = '4000 0566 5566 5556';
const DAY = 24 * 60 * 60 * 1000;

describe.skipIf(engineUnavailable())(`the play state on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  const put = (c: TestClient, path: string, body: unknown) => c.request('PUT', path, body);

  it('is free to play without a limit or a break; signed out is 401', async () => {
    const { client } = await customer(server.url);
    const res = await client.get('/api/account/play-state');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ onBreakUntil: null, spendLimit: null });
    expect(playRefusal(res.body, 199)).toBeNull();
    expect((await new TestClient(server.url).get('/api/account/play-state')).status).toBe(401);
  });

  it('at the spend limit: nothing left, more from the next UK month; a pending raise brings it forward', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50, ticketPricePence: 250 });
    const { client } = await customer(server.url, competitionId);
    expect((await put(client, '/api/account/limits', { monthlySpendLimitPence: 500 })).status).toBe(200);
    await hold(client, competitionId, [1, 2]);
    const intent = await startCheckout(client);
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: intent.clientSecret,
      ...card({ cardNumber: DEBIT }),
    });
    expect(paid.status, paid.text).toBe(200);

    const now = Date.now();
    const nextMonth = ukMonthStart(ukMonthStart(now) + 32 * DAY);
    const state = (await client.get('/api/account/play-state')).body;
    expect(state).toEqual({
      onBreakUntil: null,
      spendLimit: { limitPence: 500, leftPence: 0, moreFrom: new Date(nextMonth).toISOString() },
    });
    expect(playRefusal(state, 250)).toMatch(
      /^You've reached your monthly spending limit of £5\. You can enter again from .+ \(UK time\)\.$/,
    );
    // The server agrees: checkout is refused.
    await hold(client, competitionId, [3]);
    expect((await client.post('/api/create-payment-intent', {})).status).toBe(400);

    // A raise waits 24 hours; more can be spent from then if that is before next month.
    const raise = await put(client, '/api/account/limits', { monthlySpendLimitPence: 5000 });
    const raiseAt = Date.parse(raise.body.pending.effectiveAt);
    const raised = (await client.get('/api/account/play-state')).body;
    expect(raised.spendLimit).toEqual({
      limitPence: 500,
      leftPence: 0,
      moreFrom: new Date(Math.min(nextMonth, raiseAt)).toISOString(),
    });
  });

  it('some left but less than a ticket: refused for that ticket, allowed for a cheaper one', async () => {
    const { client } = await customer(server.url);
    await put(client, '/api/account/limits', { monthlySpendLimitPence: 150 });
    const state = (await client.get('/api/account/play-state')).body;
    expect(state.spendLimit).toMatchObject({ limitPence: 150, leftPence: 150 });
    expect(playRefusal(state, 100)).toBeNull();
    expect(playRefusal(state, 199)).toMatch(
      /^This would take you over your monthly spending limit of £1\.50 \(£1\.50 left this month\)\. You can spend more from /,
    );
  });

  it('on a break: until when, whatever the limit', async () => {
    const { client } = await customer(server.url);
    const started = await client.post('/api/account/self-exclusion', { period: '7d' });
    expect(started.status, started.text).toBe(200);
    const state = (await client.get('/api/account/play-state')).body;
    expect(state).toEqual({ onBreakUntil: started.body.selfExcludedUntil, spendLimit: null });
    expect(playRefusal(state, 1)).toMatch(/^You're taking a break until .+\. You can't enter until then\.$/);
  });
});
