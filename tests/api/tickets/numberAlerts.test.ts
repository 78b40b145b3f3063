import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { registeredClient, shopper } from '../../support/accounts';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// "Tell me when a number frees up" (api/tickets/alerts): up to five numbers someone else holds;
// only the asker is told, once, over `numbers:freed`; nothing for a closed competition.

describe.skipIf(engineUnavailable())(`number alerts on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer((s) => {
    server = s;
    db = s.database.db;
  });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  const hold = async (client: TestClient, competitionId: number, numbers: number[]) => {
    const res = await client.post('/api/cart', {
      competitionId,
      quantity: numbers.length,
      selectedNumbers: numbers,
    });
    expect(res.status).toBe(201);
    return res.body.id as number;
  };
  const ask = (client: TestClient, competitionId: number, numbers: unknown) =>
    client.post(`/api/competitions/${competitionId}/number-alerts`, { numbers });
  const socketOf = async (client: TestClient) => {
    const socket = await connectSocket(server.url, client.cookieHeader);
    sockets.push(socket);
    return socket;
  };
  const alertRows = (competitionId: number) =>
    db('numberAlerts').where({ competitionId }).orderBy('number').pluck('number');

  it('tells only the visitor who asked, once, when the holder lets the number go', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const holder = await shopper(server.url, id);
    const itemId = await hold(holder, id, [7, 8]);
    const asker = await shopper(server.url, id);
    const bystander = await shopper(server.url, id);
    const asked = await ask(asker, id, [7]);
    expect(asked.status).toBe(201);
    expect(asked.body).toEqual({ competitionId: id, numbers: [7] });

    const [askerSocket, otherSocket] = [await socketOf(asker), await socketOf(bystander)];
    const told = collect(askerSocket, 'numbers:freed');
    const notTold = collect(otherSocket, 'numbers:freed');
    expect((await holder.request('DELETE', `/api/cart/${itemId}`)).status).toBe(200);
    await waitFor(() => told.length > 0, 5000, 'numbers:freed');
    expect(told).toEqual([{ competitionId: id, numbers: [7] }]);
    await barrier(otherSocket);
    expect(notTold).toEqual([]);
    expect(await alertRows(id)).toEqual([]);

    // Told once: the number held and released again tells no one.
    const again = await hold(holder, id, [7]);
    expect((await holder.request('DELETE', `/api/cart/${again}`)).status).toBe(200);
    await barrier(askerSocket);
    expect(told).toHaveLength(1);
  });

  it('refuses free, sold, own and out-of-range numbers, and more than five, changing nothing', async () => {
    const id = await insertCompetition(db, { totalTickets: 50 });
    const holder = await shopper(server.url, id);
    await hold(holder, id, [1, 2, 3, 4, 5, 6]);
    const asker = await shopper(server.url, id);
    await hold(asker, id, [20]);

    const free = await ask(asker, id, [1, 30]);
    expect(free.status).toBe(409);
    expect(free.body).toMatchObject({
      code: 'number_free',
      message: 'Number 30 is free now: you can hold it.',
      details: { free: [30] },
    });
    const own = await ask(asker, id, [20]);
    expect(own.status).toBe(409);
    expect(own.body.message).toBe('Number 20 is in your cart.');
    const outside = await ask(asker, id, [51]);
    expect(outside.status).toBe(400);
    expect(outside.body.message).toBe('Number 51 is not in this competition.');
    const six = await ask(asker, id, [1, 2, 3, 4, 5, 6]);
    expect(six.status).toBe(400);
    expect(six.body.message).toContain('You can ask about at most 5 numbers');
    for (const bad of [[], ['7'], [0], 'seven'])
      expect((await ask(asker, id, bad)).status, JSON.stringify(bad)).toBe(400);
    expect(await alertRows(id)).toEqual([]);

    expect((await ask(asker, id, [1, 2, 3])).status).toBe(201);
    const over = await ask(asker, id, [4, 5, 6]);
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      'You can wait on at most 5 numbers in a competition (you already wait on 3).',
    );
    // Asking again for the same numbers answers the same list.
    expect((await ask(asker, id, [2, 3])).body).toEqual({ competitionId: id, numbers: [1, 2, 3] });
    expect(await alertRows(id)).toEqual([1, 2, 3]);
  });

  it('a sold number cannot be waited on', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    await sellTickets(db, id, await insertUser(db), [9]);
    const asker = await shopper(server.url, id);
    const sold = await ask(asker, id, [9]);
    expect(sold.status).toBe(409);
    expect(sold.body.message).toBe('Number 9 has been sold.');
    expect(await alertRows(id)).toEqual([]);
  });

  it('a closed competition takes no alerts, and its alerts end with it', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const holder = await shopper(server.url, id);
    const itemId = await hold(holder, id, [3]);
    const asker = await shopper(server.url, id);
    expect((await ask(asker, id, [3])).status).toBe(201);
    const socket = await socketOf(asker);
    const told = collect(socket, 'numbers:freed');

    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    const closed = await ask(asker, id, [3]);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('closed');
    await db('tickets').where({ cartItemId: itemId }).delete();
    await db('cartItems').where({ id: itemId }).delete();
    server.deps.events.publish('tickets.released', { competitionId: id, version: 99, numbers: [3] });
    await waitFor(async () => (await alertRows(id)).length === 0, 5000, 'the alerts dropped');
    await barrier(socket);
    expect(told).toEqual([]);
  });

  it('a signed-in visitor is told on every tab of the account', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const holder = await shopper(server.url, id);
    const itemId = await hold(holder, id, [11]);
    const { client: asker } = await registeredClient(server.url);
    expect((await ask(asker, id, [11])).status).toBe(201);
    const tabs = [await socketOf(asker), await socketOf(asker)];
    const told = tabs.map((t) => collect(t, 'numbers:freed'));
    expect((await holder.request('DELETE', `/api/cart/${itemId}`)).status).toBe(200);
    await waitFor(() => told.every((t) => t.length === 1), 5000, 'both tabs told');
    expect(told[0]).toEqual([{ competitionId: id, numbers: [11] }]);
  });

  it('a visitor probing the grid is limited to 20 asks in 10 minutes (429), changing nothing more', async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    const holder = await shopper(server.url, id);
    await hold(holder, id, [5, 6]);
    const prober = await shopper(server.url, id);
    for (let i = 0; i < 20; i++) expect((await ask(prober, id, [5])).status).toBe(201);
    const limited = await ask(prober, id, [6]);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await alertRows(id)).toEqual([5]);
  });
});
