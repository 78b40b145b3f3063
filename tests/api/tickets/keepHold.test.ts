import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { ALL_TAKEN_MESSAGE, CLOSING_MESSAGE, HOLD_KEPT_MESSAGE } from '../../../api/tickets/keeping/keepHold';
import { shopper } from '../../support/accounts';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// 'Keep my numbers' (api/tickets/keepHold.ts): once per hold, never past the competition's end,
// only while it takes entries and a number is free, and only the asker's own hold.

const TTL_MS = 600_000; // RESERVATION_TTL_SECONDS' default

describe.skipIf(engineUnavailable())(`keeping a hold on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  /** A visitor holding these numbers, with the hold shown as running out in 30 s. */
  async function holding(competitionId: number, numbers: number[]) {
    const client = await shopper(server.url, competitionId);
    const res = await client.post('/api/cart', {
      competitionId,
      quantity: numbers.length,
      selectedNumbers: numbers,
    });
    expect(res.status).toBe(201);
    const itemId: number = res.body.id;
    const soon = Date.now() + 30_000;
    await db('cartItems').where({ id: itemId }).update({ expiresAt: soon });
    await db('tickets').where({ cartItemId: itemId }).update({ expiresAt: soon });
    return { client, itemId, expiresAt: soon };
  }
  const keep = (client: TestClient, itemId: number) => client.post(`/api/cart/${itemId}/keep`);
  const expiryOf = async (itemId: number) => {
    const item = await db('cartItems').where({ id: itemId }).first('expiresAt', 'keptAt');
    const tickets: Array<{ expiresAt: number }> = await db('tickets')
      .where({ cartItemId: itemId })
      .select('expiresAt');
    return {
      item: Number(item.expiresAt),
      kept: item.keptAt,
      tickets: tickets.map((t) => Number(t.expiresAt)),
    };
  };

  it('keeps a hold once for a fresh hold time, then refuses a second request with 409', async () => {
    const id = await insertCompetition(db);
    const { client, itemId, expiresAt } = await holding(id, [4, 5]);
    const before = Date.now();
    const kept = await keep(client, itemId);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ id: itemId, kept: true, heldNumbers: [4, 5] });
    expect(kept.body.cart).toEqual([expect.objectContaining({ id: itemId, kept: true })]);
    const until = Date.parse(kept.body.expiresAt);
    expect(until).toBeGreaterThanOrEqual(before + TTL_MS - 1000);
    expect(until).toBeGreaterThan(expiresAt);
    const stored = await expiryOf(itemId);
    expect(stored.item).toBe(until);
    expect(stored.tickets).toEqual([until, until]);
    expect(stored.kept).not.toBeNull();

    const again = await keep(client, itemId);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'hold_kept', message: HOLD_KEPT_MESSAGE });
    expect((await expiryOf(itemId)).item).toBe(until);
    // The cart shows it as kept, so the browser offers it no more.
    expect((await client.get('/api/cart')).body[0]).toMatchObject({ id: itemId, kept: true });
  });

  it('two requests at once keep the hold once: one is kept, the other refused', async () => {
    const id = await insertCompetition(db);
    const { client, itemId } = await holding(id, [11]);
    const statuses = (await Promise.all([keep(client, itemId), keep(client, itemId)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409]);
  });

  it("leaves other people's holds alone: another visitor's id is not found, and nothing of theirs moves", async () => {
    const id = await insertCompetition(db);
    const mine = await holding(id, [1]);
    const theirs = await holding(id, [2]);
    expect((await keep(mine.client, theirs.itemId)).status).toBe(404);
    expect((await keep(mine.client, mine.itemId)).status).toBe(200);
    const stored = await expiryOf(theirs.itemId);
    expect(stored).toEqual({ item: theirs.expiresAt, kept: null, tickets: [theirs.expiresAt] });
    // Theirs may still be kept, once, by them.
    expect((await keep(theirs.client, theirs.itemId)).status).toBe(200);
  });

  it('refuses once the competition has closed, and an expired hold is gone', async () => {
    const id = await insertCompetition(db);
    const { client, itemId, expiresAt } = await holding(id, [7]);
    await db('competitions').where({ id }).update({ status: 'ended' });
    const closed = await keep(client, itemId);
    expect(closed.status).toBe(409);
    expect(closed.body).toMatchObject({
      code: 'closed',
      message: 'This competition is closed to new entries.',
    });
    expect(await expiryOf(itemId)).toEqual({ item: expiresAt, kept: null, tickets: [expiresAt] });

    const open = await insertCompetition(db);
    const late = await holding(open, [8]);
    await db('cartItems')
      .where({ id: late.itemId })
      .update({ expiresAt: Date.now() - 1 });
    expect((await keep(late.client, late.itemId)).status).toBe(404);
  });

  it("never keeps past the competition's end, and refuses when that adds nothing", async () => {
    const endDate = Date.now() + 120_000;
    const id = await insertCompetition(db, { endDate });
    const { client, itemId } = await holding(id, [3]);
    const kept = await keep(client, itemId);
    expect(kept.status).toBe(200);
    expect(Date.parse(kept.body.expiresAt)).toBe(endDate);

    const other = await holding(id, [9]);
    await db('cartItems').where({ id: other.itemId }).update({ expiresAt: endDate });
    const none = await keep(other.client, other.itemId);
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(CLOSING_MESSAGE);
  });

  it('refuses while every number is taken, since others are waiting for one to come free', async () => {
    const id = await insertCompetition(db, { totalTickets: 3 });
    const mine = await holding(id, [1]);
    await holding(id, [2, 3]);
    const refused = await keep(mine.client, mine.itemId);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(ALL_TAKEN_MESSAGE);
    expect((await expiryOf(mine.itemId)).kept).toBeNull();
  });
});
