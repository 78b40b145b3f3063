import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdTickets, insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

describe.skipIf(engineUnavailable())(`competition API on ${testEngine()}`, () => {
  let server: TestServer;
  let client: TestClient;
  const ids: Record<string, number> = {};
  const hour = 3_600_000;
  const base = Date.now() - 100 * hour;

  beforeAll(async () => {
    server = await startTestServer();
    client = new TestClient(server.url);
    const db = server.database.db;
    // Created in an order that differs from the expected listing order.
    ids.autoOld = await insertCompetition(db, {
      title: 'Auto old',
      autoWin: true,
      createdAt: base + 1 * hour,
    });
    ids.liveOld = await insertCompetition(db, { title: 'Live old', createdAt: base + 2 * hour });
    ids.autoNew = await insertCompetition(db, {
      title: 'Auto new',
      autoWin: true,
      createdAt: base + 5 * hour,
    });
    ids.liveNew = await insertCompetition(db, {
      title: 'Live new gadget',
      description: 'A phone',
      category: null, // derived from keywords: electronics
      createdAt: base + 4 * hour,
      ticketPricePence: 299,
    });
    ids.archived = await insertCompetition(db, {
      title: 'Archived',
      status: 'archived',
      createdAt: base + 9 * hour,
    });
    ids.ended = await insertCompetition(db, { title: 'Ended', status: 'ended', createdAt: base + 8 * hour });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists active competitions, live-draw first then auto-win, each newest first', async () => {
    const res = await client.get('/api/competitions');
    expect(res.status).toBe(200);
    expect(res.body.map((c: { title: string }) => c.title)).toEqual([
      'Live new gadget',
      'Live old',
      'Auto new',
      'Auto old',
    ]);
  });

  it('shows prices in pounds though they are stored in pence, and no internal fields', async () => {
    const res = await client.get(`/api/competitions/${ids.liveNew}`);
    expect(res.status).toBe(200);
    expect(res.body.ticketPrice).toBe(2.99);
    expect(res.body).not.toHaveProperty('ticketPricePence');
    expect(res.body).not.toHaveProperty('version');
    expect(res.body.createdAt).toBe(new Date(base + 4 * hour).toISOString());
    expect(res.body.category).toBe('electronics');
  });

  it('filters by the capitalised category name, using details.category or the keywords', async () => {
    const cash = await client.get('/api/competitions?category=Cash');
    expect(cash.body.map((c: { title: string }) => c.title).sort()).toEqual([
      'Auto new',
      'Auto old',
      'Live old',
    ]);
    const electronics = await client.get('/api/competitions?category=Electronics');
    expect(electronics.body.map((c: { id: number }) => c.id)).toEqual([ids.liveNew]);
    const toys = await client.get('/api/competitions?category=Toys');
    expect(toys.body).toEqual([]);
  });

  it('rejects a malformed category with a 400 validation error', async () => {
    const res = await client.get('/api/competitions?category=%3Cscript%3E');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toBe('Category must be a category name such as Cash');
    expect(res.body.details.fields).toHaveProperty('category');
  });

  it('rejects a non-numeric id with 400 and the field message', async () => {
    const res = await client.get('/api/competitions/abc');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: 'Competition id must be a positive whole number',
      code: 'validation_failed',
      details: { fields: { id: 'Competition id must be a positive whole number' } },
    });
  });

  it('answers 404 JSON for a missing or archived competition, but shows an ended one', async () => {
    for (const id of [999_999, ids.archived]) {
      const res = await client.get(`/api/competitions/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Competition not found', code: 'not_found' });
    }
    const ended = await client.get(`/api/competitions/${ids.ended}`);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('ended');
    const list = await client.get('/api/competitions');
    expect(list.body.map((c: { id: number }) => c.id)).not.toContain(ids.ended);
  });

  describe('entries and ticket availability', () => {
    let competitionId: number;
    beforeAll(async () => {
      const db = server.database.db;
      competitionId = await insertCompetition(db, { title: 'Entries', totalTickets: 20 });
      const sarah = await insertUser(db, {
        username: 'sarah',
        email: 'sarah.private@example.com',
        firstName: 'Sarah',
        lastName: 'trelawny',
      });
      const noName = await insertUser(db, { username: 'kernow99', firstName: null, lastName: null });
      const emailName = await insertUser(db, {
        username: 'bob@example.com',
        firstName: null,
        lastName: null,
      });
      await sellTickets(db, competitionId, sarah, [9, 2, 5]);
      await sellTickets(db, competitionId, noName, [7]);
      await sellTickets(db, competitionId, emailName, [11]);
      await holdTickets(db, competitionId, [3, 4], Date.now() + 60_000);
      await holdTickets(db, competitionId, [15], Date.now() - 1000); // expired: blocks nobody
    });

    it('groups sold numbers by owner, shown as first name and last initial, never an email', async () => {
      const res = await client.get(`/api/competitions/${competitionId}/entries`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { ownerName: 'Sarah T.', ticketNumbers: [2, 5, 9] },
        { ownerName: 'Entrant', ticketNumbers: [11] },
        { ownerName: 'kernow99', ticketNumbers: [7] },
      ]);
      expect(res.text).not.toContain('@');
      expect(res.text).not.toMatch(/trelawny|passwordHash|email/i);
    });

    it('lists only live holds as reserved', async () => {
      const res = await client.get(`/api/competitions/${competitionId}/reserved-tickets`);
      expect(res.body).toEqual([3, 4]);
    });

    it('lists available numbers: not sold, not held by a live hold', async () => {
      const res = await client.get(`/api/competitions/${competitionId}/available-tickets`);
      expect(res.body).toEqual([1, 6, 8, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    });

    it('answers 404 for the entries of an archived competition', async () => {
      const res = await client.get(`/api/competitions/${ids.archived}/entries`);
      expect(res.status).toBe(404);
    });
  });

  it('serves the default hero image until an admin sets one', async () => {
    const res = await client.get('/api/admin/hero-image');
    expect(res.body).toEqual({ imageUrl: '/images/hero-default.svg', isDefault: true });
    const now = Date.now();
    await server.database
      .db('siteSettings')
      .insert({ key: 'hero_image', value: '/uploads/hero.png', createdAt: now, updatedAt: now });
    const custom = await client.get('/api/admin/hero-image');
    expect(custom.body).toEqual({ imageUrl: '/uploads/hero.png', isDefault: false });
  });
});
