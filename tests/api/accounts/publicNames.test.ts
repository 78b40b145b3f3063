import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { NICKNAME_REFUSED, NICKNAME_TAKEN } from '../../../contract/publicNames';
import { put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Public names (docs/product.md#public-names-and-winner-stories): "Jo S." by default, a moderated
// nickname unique whatever its case, or "Anonymous", through PUT /api/account/public-name; the
// entries list, /winners, the draw and instant wins all name the customer that way.

describe.skipIf(engineUnavailable())(`public names on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  useTestServer(
    (s) => {
      server = s;
      db = s.database.db;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0' } },
  );

  let n = 0;
  /** A unique nickname for this run (tests share one database). */
  const nick = (base: string) => `${base}${process.pid % 1000}x${++n}`;
  const setName = (c: TestClient, body: unknown) => put(c, '/api/account/public-name', body);
  const nameRow = (id: number) => db('users').where({ id }).first('publicNameMode', 'nickname');

  it('is "Jo S." until the customer chooses a nickname or "Anonymous"', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const initial = await client.get('/api/account/public-name');
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      mode: 'initial',
      nickname: null,
      shownAs: 'Pat P.',
      initialName: 'Pat P.',
    });

    const nickname = nick('Kernow Kid');
    const chosen = await setName(client, {
      mode: 'nickname',
      nickname: `  ${nickname.replace(' ', '   ')} `,
    });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body).toEqual({ mode: 'nickname', nickname, shownAs: nickname, initialName: 'Pat P.' });
    expect(await nameRow(user.id)).toEqual({ publicNameMode: 'nickname', nickname });
    // The data export carries the choice.
    expect((await client.get('/api/account/export')).body.profile.publicName).toEqual({
      mode: 'nickname',
      nickname,
    });

    const anonymous = await setName(client, { mode: 'anonymous', nickname: 'ignored' });
    expect(anonymous.body).toEqual({
      mode: 'anonymous',
      nickname: null,
      shownAs: 'Anonymous',
      initialName: 'Pat P.',
    });
    // Another mode releases the nickname.
    expect(await nameRow(user.id)).toEqual({ publicNameMode: 'anonymous', nickname: null });
    const back = await setName(client, { mode: 'initial' });
    expect(back.body).toEqual({ mode: 'initial', nickname: null, shownAs: 'Pat P.', initialName: 'Pat P.' });

    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken();
    expect((await visitor.get('/api/account/public-name')).status).toBe(401);
    expect((await setName(visitor, { mode: 'anonymous' })).status).toBe(401);
  });

  it('refuses a malformed choice with a 400 and changes nothing', async () => {
    const { client, user } = await signedInCustomer(server.url);
    const bodies = [
      {},
      { mode: 'nick' },
      { mode: 'nickname' },
      { mode: 'nickname', nickname: '' },
      { mode: 'nickname', nickname: 'ab' },
      { mode: 'nickname', nickname: 'a'.repeat(21) },
      { mode: 'nickname', nickname: 'Jo S.' },
      { mode: 'nickname', nickname: 'me@example.com' },
      { mode: 'nickname', nickname: '_under' },
      { mode: 'nickname', nickname: 'Zoë' },
      { mode: 'nickname', nickname: '12345' },
      { mode: 'nickname', nickname: 42 },
    ];
    for (const body of bodies) {
      const res = await setName(client, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBeTruthy();
    }
    expect(await nameRow(user.id)).toEqual({ publicNameMode: 'initial', nickname: null });
  });

  it('refuses a nickname with a word from the list (400), however it is spelt', async () => {
    const { client, user } = await signedInCustomer(server.url);
    for (const nickname of [
      'Sh1t Happens',
      'big_fuck',
      'Admin',
      'admin99',
      'The Moderator',
      'Anonymous',
      'c0ck',
    ]) {
      const res = await setName(client, { mode: 'nickname', nickname });
      expect(res.status, nickname).toBe(400);
      expect(res.body.message).toBe(NICKNAME_REFUSED);
    }
    expect(await nameRow(user.id)).toEqual({ publicNameMode: 'initial', nickname: null });
    // Whole words only for the ambiguous ones: these are fine.
    for (const nickname of [nick('Hancock'), nick('Badminton Fan')]) {
      expect((await setName(client, { mode: 'nickname', nickname })).status, nickname).toBe(200);
    }
  });

  it('gives each nickname to one customer, whatever its case (409)', async () => {
    const a = await signedInCustomer(server.url);
    const b = await signedInCustomer(server.url);
    const nickname = nick('Lucky Penny');
    expect((await setName(a.client, { mode: 'nickname', nickname })).status).toBe(200);

    const taken = await setName(b.client, { mode: 'nickname', nickname: nickname.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(NICKNAME_TAKEN);
    expect(await nameRow(b.user.id)).toEqual({ publicNameMode: 'initial', nickname: null });

    // Its owner may change its case; once released, it is free for the other.
    const recased = await setName(a.client, { mode: 'nickname', nickname: nickname.toLowerCase() });
    expect(recased.status).toBe(200);
    expect(recased.body.shownAs).toBe(nickname.toLowerCase());
    expect((await setName(a.client, { mode: 'initial' })).status).toBe(200);
    expect((await setName(b.client, { mode: 'nickname', nickname })).status).toBe(200);
  });

  it('names entrants by their choice in the entries list, the draw, /winners and instant wins', async () => {
    const id = await insertCompetition(db, { title: 'Named prize', totalTickets: 5 });
    const nicknamed = await signedInCustomer(server.url, { firstName: 'Jo', lastName: 'Smith' });
    const hidden = await signedInCustomer(server.url, { firstName: 'Sam', lastName: 'Jones' });
    const plain = await signedInCustomer(server.url, { firstName: 'Kim', lastName: 'Lee' });
    const nickname = nick('Cornish Ace');
    await setName(nicknamed.client, { mode: 'nickname', nickname });
    await setName(hidden.client, { mode: 'anonymous' });
    await sellTickets(db, id, nicknamed.user.id, [1, 2, 3]);
    await sellTickets(db, id, hidden.user.id, [4]);
    await sellTickets(db, id, plain.user.id, [5]);

    const entries = await plain.client.get(`/api/competitions/${id}/entries`);
    expect(entries.status, entries.text).toBe(200);
    expect(entries.body).toEqual([
      { ownerName: nickname, ticketNumbers: [1, 2, 3] },
      { ownerName: 'Anonymous', ticketNumbers: [4] },
      { ownerName: 'Kim L.', ticketNumbers: [5] },
    ]);

    // Every number belongs to someone who chose: the winner is named by that choice.
    await setName(plain.client, { mode: 'nickname', nickname: nick('Kim Wins') });
    const names = new Map<number, string>();
    for (const [who, numbers] of [
      [nicknamed, [1, 2, 3]],
      [hidden, [4]],
      [plain, [5]],
    ] as const) {
      const shown = (await who.client.get('/api/account/public-name')).body.shownAs as string;
      for (const n of numbers) names.set(n, shown);
    }
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    const admin = (await signedInAdmin(server.url)).client;
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    const expected = names.get(drawn.body.winningNumber as number);
    expect(drawn.body.winnerName).toBe(expected);
    expect((await plain.client.get(`/api/competitions/${id}`)).body.draw.winnerName).toBe(expected);
    const winner = ((await plain.client.get('/api/winners')).body as Array<Record<string, unknown>>).find(
      (w) => w.competitionId === id,
    );
    expect(winner?.winnerName).toBe(expected);
  });

  it("renames the customer's instant wins with the choice, and frees the nickname when the account goes", async () => {
    const id = await insertCompetition(db, { title: 'Instant named' });
    const { client, user, password } = await signedInCustomer(server.url);
    await db('instantWins').insert({
      competitionId: id,
      title: '£5 credit',
      kind: 'credit',
      amountPence: 500,
      number: 7,
      wonAt: Date.now(),
      wonOrder: 1,
      userId: user.id,
      winnerName: 'Pat P.',
      createdAt: Date.now(),
    });
    const nickname = nick('Instant Ian');
    expect((await setName(client, { mode: 'nickname', nickname })).status).toBe(200);
    expect((await db('instantWins').where({ competitionId: id }).first()).winnerName).toBe(nickname);

    const gone = await client.request('DELETE', '/api/account', { password });
    expect(gone.status, gone.text).toBe(200);
    expect(await nameRow(user.id)).toEqual({ publicNameMode: 'initial', nickname: null });
    expect((await db('instantWins').where({ competitionId: id }).first()).winnerName).toBe(
      'Anonymous winner',
    );
    const other = await signedInCustomer(server.url);
    expect((await setName(other.client, { mode: 'nickname', nickname })).status).toBe(200);
  });
});
