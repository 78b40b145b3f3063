import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { openDueCompetitions } from '../../../api/catalogue/launch/openingJob';
import { formatOpening } from '../../../contract/londonTime';
import { shopper } from '../../support/accounts';
import { put, signedInAdmin } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Drafts and scheduled launches (docs/product.md#drafts-and-scheduled-launches): a draft is seen
// by admins only; a scheduled competition is public, takes no hold before its opening, and opens
// for every watcher at once (`competition:opened`), announced once.

const HOUR = 3_600_000;
const body = (overrides: Record<string, unknown> = {}) => ({
  title: `Launch ${Math.random().toString(36).slice(2, 8)}`,
  description: 'A launch test prize',
  ticketPrice: 1,
  totalTickets: 50,
  endDate: new Date(Date.now() + 10 * 24 * HOUR).toISOString(),
  details: { category: 'Electronics' },
  ...overrides,
});

describe.skipIf(engineUnavailable())(`drafts and scheduled launches on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  const create = async (overrides: Record<string, unknown>) => {
    const res = await admin.post('/api/admin/competitions', body(overrides));
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const row = (id: number) => db('competitions').where({ id }).first('status', 'startsAt', 'openedAt');
  const jobDeps = () => ({ db, events: server.deps.events });

  it('a draft is absent from every public list and 404 to visitors, and an admin previews it', async () => {
    const id = await create({ status: 'draft' });
    const visitor = await shopper(server.url);
    const list = await visitor.get('/api/competitions');
    expect(list.body.map((c: { id: number }) => c.id)).not.toContain(id);
    expect((await visitor.get(`/api/competitions/${id}`)).status).toBe(404);
    expect((await visitor.get(`/api/competitions/${id}/entries`)).status).toBe(404);
    const sitemap = await visitor.get('/sitemap.xml');
    expect(sitemap.text).not.toContain(`/competitions/${id}<`);
    const hold = await visitor.post('/api/cart', { competitionId: id, quantity: 1 });
    expect(hold.status).toBe(404);

    const preview = await admin.get(`/api/competitions/${id}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ id, status: 'draft', startsAt: null });
    expect((await admin.get(`/api/competitions/${id}/entries`)).body).toEqual([]);
    expect(await row(id)).toMatchObject({ status: 'draft', openedAt: null });

    // Published: public at once, and announced once.
    expect((await put(admin, `/api/admin/competitions/${id}`, { status: 'active' })).status).toBe(200);
    expect((await visitor.get(`/api/competitions/${id}`)).body.status).toBe('active');
    expect(Number((await row(id)).openedAt)).toBeGreaterThan(0);
  });

  it('a scheduled competition is public with its opening, refuses holds with not_open_yet, and opens for every watcher at once', async () => {
    const startsAt = Date.now() + 2 * HOUR;
    const id = await create({ startsAt: new Date(startsAt).toISOString() });
    expect(await row(id)).toMatchObject({ status: 'active', openedAt: null });
    const visitor = await shopper(server.url, id);
    const detail = await visitor.get(`/api/competitions/${id}`);
    expect(detail.body.startsAt).toBe(new Date(startsAt).toISOString());
    const early = await visitor.post('/api/cart', { competitionId: id, quantity: 1 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      code: 'not_open_yet',
      message: `This competition opens at ${formatOpening(startsAt)}.`,
    });
    expect(await db('tickets').where({ competitionId: id }).count('* as n')).toEqual([{ n: 0 }]);
    // Not due: nothing opens.
    expect(await openDueCompetitions(jobDeps(), startsAt - 1)).not.toContain(id);

    const watchers = [await connectSocket(server.url), await connectSocket(server.url)];
    sockets.push(...watchers);
    for (const w of watchers) expect((await watch(w, id)).ok).toBe(true);
    const opened = watchers.map((w) => collect(w, 'competition:opened'));
    // The opening comes: the job (the closing job's timer in the server) opens it once.
    await db('competitions')
      .where({ id })
      .update({ startsAt: Date.now() - 1000 });
    const now = Date.now();
    expect(await openDueCompetitions(jobDeps(), now)).toContain(id);
    expect(await openDueCompetitions(jobDeps(), now + 1000)).not.toContain(id);
    await waitFor(() => opened.every((o) => o.length === 1), 5000, 'competition:opened on both watchers');
    for (const o of opened) expect(o).toEqual([{ competitionId: id, openedAt: new Date(now).toISOString() }]);
    await barrier(watchers[0]!);
    expect(opened[0]).toHaveLength(1);
    expect(Number((await row(id)).openedAt)).toBe(now);
    expect((await visitor.post('/api/cart', { competitionId: id, quantity: 1 })).status).toBe(201);
  });

  it('the opening can move while nothing was held, never after a hold', async () => {
    const id = await create({ startsAt: new Date(Date.now() + HOUR).toISOString() });
    const later = new Date(Date.now() + 3 * HOUR).toISOString();
    expect((await put(admin, `/api/admin/competitions/${id}`, { startsAt: later })).status).toBe(200);
    expect((await admin.get(`/api/competitions/${id}`)).body.startsAt).toBe(later);
    // Opened now (no opening time), someone holds a number: the opening is fixed.
    expect((await put(admin, `/api/admin/competitions/${id}`, { startsAt: null })).status).toBe(200);
    const visitor = await shopper(server.url, id);
    expect((await visitor.post('/api/cart', { competitionId: id, quantity: 1 })).status).toBe(201);
    const moved = await put(admin, `/api/admin/competitions/${id}`, { startsAt: later });
    expect(moved.status).toBe(409);
    expect(moved.body.message).toBe('The opening time cannot change once a ticket has been held.');
    expect((await row(id)).startsAt).toBeNull();
  });

  it('refuses a bad opening time with 400 and stores nothing', async () => {
    const before = await db('competitions').count('* as n');
    const res = await admin.post('/api/admin/competitions', body({ startsAt: 'soon' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Opening time must be a valid date');
    expect(await db('competitions').count('* as n')).toEqual(before);
  });
});
