import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { STORY_NEEDS_CONSENT } from '../../../contract/winnerStories';
import { png, put, signedInAdmin, signedInCustomer, uploadFile } from '../../support/admin';
import { insertCompetition, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Winner stories (docs/product.md#public-names-and-winner-stories): per main prize won, a photo
// (the admin's image upload) and a quote up to 280 characters, stored and published on /winners
// only with the recorded "winner agreed to publicity" tick; the winner named by their choice.

describe.skipIf(engineUnavailable())(`winner stories on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  let adminId: number;
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      const signedIn = await signedInAdmin(s.url);
      admin = signedIn.client;
      adminId = signedIn.user.id;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0' } },
  );

  const storyPath = (id: number, position = 1) => `/api/admin/winners/${id}/prizes/${position}/story`;
  const storiesOf = (id: number) => db('winnerStories').where({ competitionId: id });
  const publicStories = async (client: TestClient, id: number) => {
    const winners = (await client.get('/api/winners')).body as Array<{
      competitionId: number;
      stories?: unknown;
    }>;
    return winners.find((w) => w.competitionId === id)?.stories;
  };

  /** A competition drawn with one entrant, who chose a nickname. */
  async function drawnCompetition(title: string) {
    const id = await insertCompetition(db, { title, totalTickets: 3 });
    const winner = await signedInCustomer(server.url, { firstName: 'Jo', lastName: 'Smith' });
    const nickname = `Story Star ${process.pid % 1000}${id}`;
    expect(
      (await put(winner.client, '/api/account/public-name', { mode: 'nickname', nickname })).status,
    ).toBe(200);
    await sellTickets(db, id, winner.user.id, [1, 2]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    return { id, winner, nickname };
  }

  it('stores nothing without the publicity tick: 400, and 404 for a prize not drawn', async () => {
    const { id, winner } = await drawnCompetition('Story refused');
    const upload = await uploadFile(admin, '/api/admin/upload-image', {
      filename: 'winner.png',
      contentType: 'image/png',
      data: png(4, 3),
    });
    expect(upload.status, upload.text).toBe(201);
    const photo = upload.body.imageUrl as string;
    for (const body of [
      { photo, consent: false },
      { quote: 'Over the moon!', consent: false },
      { photo, quote: 'Over the moon!' },
      { quote: 'x'.repeat(281), consent: true },
      { photo: 'javascript:alert(1)', consent: true },
    ]) {
      const res = await put(admin, storyPath(id), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const refused = await put(admin, storyPath(id), { photo, quote: 'Over the moon!', consent: false });
    expect(refused.body.message).toBe(STORY_NEEDS_CONSENT);
    expect(await storiesOf(id)).toEqual([]);
    expect(await db('auditLog').where({ action: 'competition.winner_story', entityId: String(id) })).toEqual(
      [],
    );

    expect((await put(admin, storyPath(id, 2), { quote: 'Hi', consent: true })).status).toBe(404);
    const undrawn = await insertCompetition(db);
    expect((await put(admin, storyPath(undrawn), { quote: 'Hi', consent: true })).status).toBe(404);
    // Customers cannot write stories.
    expect((await put(winner.client, storyPath(id), { quote: 'Hi', consent: true })).status).toBe(403);
    expect(await publicStories(winner.client, id)).toBeUndefined();
  });

  it('records who ticked and when, publishes the story with the public name, and takes it down', async () => {
    const { id, winner, nickname } = await drawnCompetition('Story told');
    const before = Date.now();
    const quote = `${'A'.repeat(270)} thank you`;
    const saved = await put(admin, storyPath(id), { photo: '/uploads/winner.png', quote, consent: true });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.position).toBe(1);
    expect(saved.body.story).toEqual({
      photo: '/uploads/winner.png',
      quote,
      consentAt: expect.any(String),
      consentBy: 'admin',
    });
    const consentAt = saved.body.story.consentAt as string;
    expect(Date.parse(consentAt)).toBeGreaterThanOrEqual(before);
    const [row] = await storiesOf(id);
    expect(Number(row.consentBy)).toBe(adminId);
    expect(
      await db('auditLog').where({ action: 'competition.winner_story', entityId: String(id) }),
    ).toHaveLength(1);

    expect(await publicStories(winner.client, id)).toEqual([
      { position: 1, prizeTitle: 'Story told', winnerName: nickname, photo: '/uploads/winner.png', quote },
    ]);
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.draw.prizes[0].story).toEqual(saved.body.story);

    // Editing keeps the original tick; the name follows the winner's choice.
    const edited = await put(admin, storyPath(id), { quote: 'Still over the moon', consent: true });
    expect(edited.body.story).toEqual({
      photo: null,
      quote: 'Still over the moon',
      consentAt,
      consentBy: 'admin',
    });
    await put(winner.client, '/api/account/public-name', { mode: 'anonymous' });
    expect(await publicStories(winner.client, id)).toEqual([
      {
        position: 1,
        prizeTitle: 'Story told',
        winnerName: 'Anonymous',
        photo: null,
        quote: 'Still over the moon',
      },
    ]);

    // Consent withdrawn: the story goes.
    const withdrawn = await put(admin, storyPath(id), { consent: false });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.story).toBeNull();
    expect(await storiesOf(id)).toEqual([]);
    expect(await publicStories(winner.client, id)).toBeUndefined();
  });

  it("goes with the winner's erased account", async () => {
    const { id, winner } = await drawnCompetition('Story erased');
    expect((await put(admin, storyPath(id), { quote: 'Wow', consent: true })).status).toBe(200);
    // An account goes once its prize is delivered, which waits for the age check.
    await db('users').where({ id: winner.user.id }).update({ ageVerifiedAt: Date.now() });
    expect((await admin.request('PATCH', `/api/admin/winners/${id}`, { prizeDelivered: true })).status).toBe(
      200,
    );
    const gone = await winner.client.request('DELETE', '/api/account', { password: winner.password });
    expect(gone.status, gone.text).toBe(200);
    expect(await storiesOf(id)).toEqual([]);
  });
});
