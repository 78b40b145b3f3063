import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { del, put, signedInAdmin } from '../../support/admin';
import { holdTickets, insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { barrier, collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

const future = (days = 10) => new Date(Date.now() + days * 86_400_000).toISOString();

const valid = (overrides: Record<string, unknown> = {}) => ({
  title: 'Win a Games Console',
  description: 'The latest console with two controllers',
  image: '/uploads/0123456789abcdef0123456789abcdef.png',
  ticketPrice: 2.99,
  totalTickets: 500,
  endDate: future(),
  autoWin: false,
  status: 'active',
  features: ['Two controllers', 'Free delivery'],
  details: { category: 'Electronics', productName: 'Console X' },
  ...overrides,
});

describe.skipIf(engineUnavailable())(`admin competitions on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  const sockets: TestSocket[] = [];
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    {
      beforeStop: () => {
        for (const s of sockets) s.disconnect();
      },
    },
  );

  it('creates a competition with every field, in pounds on the wire and pence in the database', async () => {
    const res = await admin.post(
      '/api/admin/competitions',
      valid({
        maxTicketsPerUser: 20,
        skillQuestion: {
          question: 'What colour is the sky?',
          options: ['Blue', 'Green', 'Red'],
          answer: 'blue',
        },
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Win a Games Console',
      ticketPrice: 2.99,
      totalTickets: 500,
      ticketsSold: 0,
      status: 'active',
      autoWin: false,
      features: ['Two controllers', 'Free delivery'],
      details: { category: 'Electronics', productName: 'Console X' },
      maxTicketsPerUser: 20,
      skillQuestion: {
        question: 'What colour is the sky?',
        options: ['Blue', 'Green', 'Red'],
        answer: 'Blue',
      },
    });
    const row = await db('competitions').where({ id: res.body.id }).first();
    expect(row.ticketPricePence).toBe(299);
    // The public API shows it, without the answer.
    const pub = await admin.get(`/api/competitions/${res.body.id}`);
    expect(pub.body.ticketPrice).toBe(2.99);
    expect(JSON.stringify(pub.body)).not.toContain('"answer"');
    // The audit trail has the creation.
    const detail = await admin.get(`/api/admin/competitions/${res.body.id}`);
    expect(detail.body.auditLog).toEqual([
      expect.objectContaining({
        action: 'competition.create',
        before: null,
        actor: expect.objectContaining({ username: 'admin' }),
      }),
    ]);
  });

  it('applies the spec defaults: 1000 tickets, active, not auto-win', async () => {
    const res = await admin.post('/api/admin/competitions', {
      title: 'Defaults',
      ticketPrice: 1,
      endDate: future(),
      details: { category: 'cash' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      totalTickets: 1000,
      status: 'active',
      autoWin: false,
      features: [],
      details: { category: 'Cash' },
    });
  });

  it('refuses bad input with the spec messages and stores nothing', async () => {
    const count = async () => Number((await db('competitions').count({ n: '*' }).first())!.n);
    const before = await count();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [valid({ totalTickets: 0 }), 'totalTickets', 'Total tickets must be at least 1'],
      [valid({ details: { category: '' } }), 'details.category', 'Category is required'],
      [valid({ details: {} }), 'details.category', 'Category is required'],
      [valid({ details: { category: 'Pets' } }), 'details.category', 'Category must be one of'],
      [valid({ ticketPrice: 0 }), 'ticketPrice', 'Ticket price must be a positive number'],
      [valid({ ticketPrice: -1 }), 'ticketPrice', 'Ticket price must be a positive number'],
      [valid({ ticketPrice: 1.005 }), 'ticketPrice', 'whole pence'],
      [valid({ endDate: 'soon' }), 'endDate', 'End date must be a valid date'],
      [
        valid({ endDate: new Date(Date.now() - 60_000).toISOString() }),
        'endDate',
        'End date must be in the future',
      ],
      [valid({ status: 'live' }), 'status', 'Status must be draft, active, archived or ended'],
      [valid({ title: '  ' }), 'title', 'Title is required'],
      [valid({ image: 'javascript:alert(1)' }), 'image', 'Image must be an uploaded image URL'],
      [valid({ maxTicketsPerUser: 0 }), 'maxTicketsPerUser', 'per-person limit'],
      [
        valid({ skillQuestion: { question: 'Q?', options: ['a', 'b', 'd'], answer: 'c' } }),
        'skillQuestion.answer',
        'The correct answer must be one of the options',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post('/api/admin/competitions', body);
      expect(res.status, `${field}: ${res.text}`).toBe(400);
      expect(res.body.details.fields[field], field).toContain(message);
    }
    expect(await count()).toBe(before);
  });

  it('lists by tab (live = active), non-auto-win first then newest', async () => {
    const a = await insertCompetition(db, { title: 'Tab auto', autoWin: true, createdAt: Date.now() });
    const b = await insertCompetition(db, { title: 'Tab old', createdAt: Date.now() - 50_000 });
    const c = await insertCompetition(db, { title: 'Tab new', createdAt: Date.now() - 1000 });
    const archived = await insertCompetition(db, { title: 'Tab archived', status: 'archived' });
    const ended = await insertCompetition(db, { title: 'Tab ended', status: 'ended' });
    const live = (await admin.get('/api/admin/competitions?status=live')).body as Array<{
      id: number;
      status: string;
    }>;
    expect(live.every((x) => x.status === 'active')).toBe(true);
    const order = live.map((x) => x.id).filter((id) => [a, b, c].includes(id));
    expect(order).toEqual([c, b, a]);
    expect(
      (await admin.get('/api/admin/competitions?status=archived')).body.map((x: { id: number }) => x.id),
    ).toContain(archived);
    expect(
      (await admin.get('/api/admin/competitions?status=ended')).body.map((x: { id: number }) => x.id),
    ).toContain(ended);
    const all = (await admin.get('/api/admin/competitions')).body as unknown[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect((await admin.get('/api/admin/competitions?status=nope')).status).toBe(400);
  });

  it('edits a competition: stored, audited, and pushed to watchers as competition:updated after commit', async () => {
    const id = await insertCompetition(db, { title: 'Live edit', ticketPricePence: 100 });
    const socket = await connectSocket(server.url);
    sockets.push(socket);
    const ack = await watch(socket, id);
    expect(ack.ok).toBe(true);
    const startVersion = ack.ok ? ack.snapshot.version : 0;
    const updates = collect(socket, 'competition:updated');

    const res = await put(admin, `/api/admin/competitions/${id}`, {
      ticketPrice: 4.5,
      title: 'Live edit, cheaper',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ ticketPrice: 4.5, title: 'Live edit, cheaper' });
    await waitFor(() => updates.length === 1, 2000, 'competition:updated');
    expect(updates[0]).toMatchObject({
      competitionId: id,
      version: startVersion + 1,
      ticketPrice: 4.5,
      title: 'Live edit, cheaper',
    });
    expect(updates[0]).not.toHaveProperty('skillAnswer');
    expect((await db('competitions').where({ id }).first()).ticketPricePence).toBe(450);

    const detail = await admin.get(`/api/admin/competitions/${id}`);
    const entry = detail.body.auditLog.find((e: { action: string }) => e.action === 'competition.update');
    expect(entry.before).toMatchObject({ ticketPrice: 1 });
    expect(entry.after).toMatchObject({ ticketPrice: 4.5 });

    // A refused edit changes nothing and publishes nothing.
    // A change is published after COMMIT, before the answer: none was while this one was served.
    const published: unknown[] = [];
    const unsubscribe = server.deps.events.subscribe('competition.updated', (e) => published.push(e));
    const bad = await put(admin, `/api/admin/competitions/${id}`, { ticketPrice: 'free' }).finally(
      unsubscribe,
    );
    expect(bad.status).toBe(400);
    expect(published).toEqual([]);
    await barrier(socket);
    expect(updates).toHaveLength(1);
    expect((await put(admin, '/api/admin/competitions/999999', { title: 'x' })).status).toBe(404);
  });

  it('refuses to lower totalTickets below a sold or held number', async () => {
    const id = await insertCompetition(db, { totalTickets: 100 });
    const buyer = await insertUser(db);
    await sellTickets(db, id, buyer, [40]);
    await holdTickets(db, id, [70], Date.now() + 600_000);
    const below = await put(admin, `/api/admin/competitions/${id}`, { totalTickets: 60 });
    expect(below.status).toBe(409);
    expect(below.body.message).toBe(
      'Total tickets cannot be lower than 70: ticket number 70 is already sold or held.',
    );
    expect((await db('competitions').where({ id }).first()).totalTickets).toBe(100);
    // An expired hold does not count.
    await holdTickets(db, id, [90], Date.now() - 1000);
    const ok = await put(admin, `/api/admin/competitions/${id}`, { totalTickets: 70 });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.totalTickets).toBe(70);
  });

  it('changes status (archived hides it from the public, live again shows it)', async () => {
    const id = await insertCompetition(db);
    expect((await put(admin, `/api/admin/competitions/${id}`, { status: 'archived' })).status).toBe(200);
    expect((await admin.get(`/api/competitions/${id}`)).status).toBe(404);
    expect((await put(admin, `/api/admin/competitions/${id}`, { status: 'active' })).status).toBe(200);
    expect((await admin.get(`/api/competitions/${id}`)).status).toBe(200);
  });

  it('deletes a competition without sales (its holds go too) and refuses one with sales with 409', async () => {
    const unsold = await insertCompetition(db);
    await holdTickets(db, unsold, [1, 2], Date.now() + 600_000);
    const gone = await del(admin, `/api/admin/competitions/${unsold}`);
    expect(gone.status, gone.text).toBe(200);
    expect(await db('competitions').where({ id: unsold }).first()).toBeUndefined();
    expect(await db('tickets').where({ competitionId: unsold })).toEqual([]);
    expect(
      await db('auditLog').where({
        entityType: 'competition',
        entityId: String(unsold),
        action: 'competition.delete',
      }),
    ).toHaveLength(1);

    const sold = await insertCompetition(db);
    await sellTickets(db, sold, await insertUser(db), [5]);
    const refused = await del(admin, `/api/admin/competitions/${sold}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'This competition has sales and cannot be deleted. End or archive it instead.',
    );
    expect(await db('competitions').where({ id: sold }).first()).toBeDefined();
    expect((await del(admin, '/api/admin/competitions/999999')).status).toBe(404);
  });

  it('exports purchases as CSV named from the title and date', async () => {
    const id = await insertCompetition(db, {
      title: 'Win £500 "Cash"!',
      status: 'ended',
      ticketPricePence: 250,
    });
    const alice = await insertUser(db, { firstName: 'Alice', lastName: 'Smith', email: 'alice@example.com' });
    const mallory = await insertUser(db, {
      firstName: '=HYPERLINK("x")',
      lastName: 'Evil',
      email: 'm@example.com',
    });
    const o1 = await sellTickets(db, id, alice, [3, 1]);
    const o2 = await sellTickets(db, id, mallory, [7]);
    const res = await admin.get(`/api/admin/competitions/${id}/export-csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="win-500-cash-${today}.csv"`);
    const lines = res.text
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Order Number,Ticket Numbers,Quantity,Buyer,Username,Email,Purchase Date,Ticket Price,Entry Route',
    );
    expect(lines[1]).toMatch(
      new RegExp(
        `^ORD-${String(o1).padStart(10, '0')},1 3,2,Alice Smith,\\w+,alice@example.com,\\d{4}-.*Z,2.50,paid$`,
      ),
    );
    // A spreadsheet formula in a name is neutralised.
    expect(lines[2]).toContain(`ORD-${String(o2).padStart(10, '0')},7,1,"'=HYPERLINK(""x"") Evil"`);
    expect(lines).toHaveLength(3);
  });
  it('a drawn competition cannot be made active again (409), nor one whose instant wins were revealed', async () => {
    const drawn = await insertCompetition(db, { status: 'ended', endDate: Date.now() - 60_000 });
    await db('competitions')
      .where({ id: drawn })
      .update({ drawnAt: Date.now() - 1000 });
    const again = await put(admin, `/api/admin/competitions/${drawn}`, {
      status: 'active',
      endDate: future(),
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This competition has been drawn, so it can't be made active again.");
    expect((await db('competitions').where({ id: drawn }).first('status')).status).toBe('ended');

    const made = await admin.post('/api/admin/competitions', {
      ...valid({ title: 'Instant prizes' }),
      instantWins: [{ title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [7] }],
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as number;
    expect((await put(admin, `/api/admin/competitions/${id}`, { status: 'ended' })).status).toBe(200);
    // Ended, its list and salt are public: number 7 is known to be a winner.
    const pub = await admin.get(`/api/competitions/${id}`);
    expect(pub.body.instantWinReveal.list).toEqual(
      expect.arrayContaining([expect.objectContaining({ number: 7 })]),
    );
    const reopened = await put(admin, `/api/admin/competitions/${id}`, { status: 'active' });
    expect(reopened.status).toBe(409);
    expect(reopened.body.message).toBe(
      "This competition's instant wins have been revealed since it closed, so it can't be reopened.",
    );
    expect((await db('competitions').where({ id }).first('status')).status).toBe('ended');

    // Without instant wins, an ended competition may still be reopened.
    const plain = await insertCompetition(db, { status: 'ended' });
    expect((await put(admin, `/api/admin/competitions/${plain}`, { status: 'active' })).status).toBe(200);
  });
});
