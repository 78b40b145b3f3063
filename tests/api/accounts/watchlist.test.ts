import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { del, put, signedInCustomer } from '../../support/admin';
import { insertCompetition } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The watchlist (docs/product.md#watching-a-competition): PUT and DELETE
// /api/account/watchlist/:competitionId and GET /api/account/watchlist, signed-in customers only.

describe.skipIf(engineUnavailable())(`the watchlist on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });

  it('is for signed-in customers only', async () => {
    const id = await insertCompetition(db);
    const guest = new TestClient(server.url);
    await guest.fetchCsrfToken();
    expect((await guest.get('/api/account/watchlist')).status).toBe(401);
    expect((await put(guest, `/api/account/watchlist/${id}`)).status).toBe(401);
    expect((await del(guest, `/api/account/watchlist/${id}`)).status).toBe(401);
    expect(await db('watchlist').where({ competitionId: id })).toHaveLength(0);
  });

  it('PUT watches, again changes nothing, GET lists closing soonest first, DELETE stops', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const later = await insertCompetition(db, { title: 'Later prize', endDate: Date.now() + 9 * 86_400_000 });
    const sooner = await insertCompetition(db, {
      title: 'Sooner prize',
      endDate: Date.now() + 2 * 86_400_000,
    });
    const watched = await put(client, `/api/account/watchlist/${later}`);
    expect(watched.status, watched.text).toBe(200);
    expect(watched.body).toEqual({ competitionId: later, watching: true });
    expect((await put(client, `/api/account/watchlist/${later}`)).status).toBe(200);
    expect((await put(client, `/api/account/watchlist/${sooner}`)).status).toBe(200);
    expect(await db('watchlist').where({ userId: user.id })).toHaveLength(2);

    const list = await client.get('/api/account/watchlist');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    expect(list.body.competitions.map((c: { title: string }) => c.title)).toEqual([
      'Sooner prize',
      'Later prize',
    ]);
    expect(list.body.competitions[0]).toEqual({
      competitionId: sooner,
      title: 'Sooner prize',
      image: '/images/competitions/other.svg',
      endDate: expect.stringMatching(/Z$/),
      status: 'active',
      watchedAt: expect.stringMatching(/Z$/),
    });

    const stopped = await del(client, `/api/account/watchlist/${later}`);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ competitionId: later, watching: false });
    expect((await del(client, `/api/account/watchlist/${later}`)).status).toBe(200);
    expect(
      (await client.get('/api/account/watchlist')).body.competitions.map(
        (c: { competitionId: number }) => c.competitionId,
      ),
    ).toEqual([sooner]);
  });

  it("is each customer's own", async () => {
    const a = await signedInCustomer(server.url);
    const b = await signedInCustomer(server.url);
    const id = await insertCompetition(db);
    await put(a.client, `/api/account/watchlist/${id}`);
    expect((await b.client.get('/api/account/watchlist')).body.competitions).toEqual([]);
    // B's DELETE does not touch A's row.
    await del(b.client, `/api/account/watchlist/${id}`);
    expect((await a.client.get('/api/account/watchlist')).body.competitions).toHaveLength(1);
  });

  it('refuses a competition nobody can open (404) and a bad id (400), changing nothing', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const archived = await insertCompetition(db, { status: 'archived' });
    const missing = await put(client, '/api/account/watchlist/999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Competition not found');
    expect((await put(client, `/api/account/watchlist/${archived}`)).status).toBe(404);
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const res = await put(client, `/api/account/watchlist/${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toBe('Competition id must be a positive whole number');
    }
    expect(await db('watchlist').where({ userId: user.id })).toHaveLength(0);
  });

  it('needs the CSRF token to change', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const id = await insertCompetition(db);
    client.csrfToken = undefined;
    expect((await put(client, `/api/account/watchlist/${id}`)).status).toBe(403);
    expect(await db('watchlist').where({ userId: user.id })).toHaveLength(0);
  });
});
