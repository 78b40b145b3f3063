import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { put, signedInAdmin } from '../../support/admin';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { startTestServer, type TestServer } from '../../support/testServer';

// Nothing hidden (docs/product.md "Prizes on show"): every main prize with its value, cash
// alternative and picture, as the admin stored them (admin view) and as shown (public: the 1st
// prize takes the competition's own where it states none); and one category list.

const CAR = {
  title: 'Hatchback',
  description: 'Any colour',
  cashValuePence: 2_500_000,
  cashAlternativePence: 2_000_000,
  image: '/images/competitions/automotive.svg',
};

describe.skipIf(engineUnavailable())(`prizes on show on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer();
    db = server.database.db;
    admin = (await signedInAdmin(server.url)).client;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const create = (body: Record<string, unknown>) =>
    admin.post('/api/admin/competitions', {
      title: 'Prize show',
      ticketPrice: 1,
      totalTickets: 20,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      image: '/images/competitions/cash.svg',
      details: { category: 'Automotive' },
      ...body,
    });

  it('keeps each prize’s value, cash alternative and picture, in order, for the admin and the public', async () => {
    const created = await create({
      prizes: [
        CAR,
        { title: '£100 cash', cashValuePence: 10_000 },
        { title: 'Hamper', image: 'https://cdn.example/h.png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const expected = [
      CAR,
      {
        title: '£100 cash',
        description: null,
        cashValuePence: 10_000,
        cashAlternativePence: null,
        image: null,
      },
      {
        title: 'Hamper',
        description: null,
        cashValuePence: null,
        cashAlternativePence: null,
        image: 'https://cdn.example/h.png',
      },
    ];
    expect((await admin.get(`/api/admin/competitions/${id}`)).body.prizes).toEqual(expected);
    const pub = (await admin.get(`/api/competitions/${id}`)).body;
    expect(pub.prizes).toEqual(expected);
    expect(pub.category).toBe('automotive');
    // The list carries the prizes too (the cards count the winners from it).
    const list = (await admin.get('/api/competitions?category=Automotive')).body as Array<{
      id: number;
      prizes: unknown[];
    }>;
    expect(list.find((c) => c.id === id)?.prizes).toHaveLength(3);
  });

  it('shows a single prize with the competition’s value, cash alternative and picture; the admin view keeps it bare', async () => {
    const created = await create({ title: 'Single', prizeValue: 500, cashAlternative: 400 });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    expect((await admin.get(`/api/competitions/${id}`)).body.prizes).toEqual([
      {
        title: 'Single',
        description: null,
        cashValuePence: 50_000,
        cashAlternativePence: 40_000,
        image: '/images/competitions/cash.svg',
      },
    ]);
    // The form shows no list for it (one prize, the title).
    expect((await admin.get(`/api/admin/competitions/${id}`)).body.prizes).toEqual([
      { title: 'Single', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
    ]);
  });

  it('the 1st prize of a list falls back to the competition’s facts; later prizes never do', async () => {
    const created = await create({
      title: 'Fallback',
      prizeValue: 900,
      cashAlternative: 700,
      prizes: [{ title: 'Bike' }, { title: 'Helmet' }],
    });
    const id = created.body.id as number;
    const [first, second] = (await admin.get(`/api/competitions/${id}`)).body.prizes;
    expect(first).toMatchObject({
      cashValuePence: 90_000,
      cashAlternativePence: 70_000,
      image: '/images/competitions/cash.svg',
    });
    expect(second).toMatchObject({ cashValuePence: null, cashAlternativePence: null, image: null });
  });

  it('refuses a bad cash alternative or picture with the schema’s message', async () => {
    const negative = await create({ prizes: [{ title: 'x', cashAlternativePence: -1 }] });
    expect(negative.status).toBe(400);
    expect(negative.text).toContain('A prize cash alternative must be a whole number of pence');
    const script = await create({ prizes: [{ title: 'x', image: 'javascript:alert(1)' }] });
    expect(script.status).toBe(400);
    expect(script.text).toContain('A prize picture must be an uploaded image URL');
  });

  it('reads lists stored before prizes had a cash alternative and picture, and they still count as unchanged', async () => {
    const created = await create({ title: 'Old list', prizes: [{ title: 'A' }, { title: 'B' }] });
    const id = created.body.id as number;
    await db('competitions')
      .where({ id })
      .update({
        mainPrizes: JSON.stringify([
          { title: 'A', description: null, cashValuePence: 100 },
          { title: 'B', description: null, cashValuePence: null },
        ]),
        // The draw's round is fixed: the prizes may no longer change.
        drawBeaconRound: 1,
      });
    const shown = (await admin.get(`/api/competitions/${id}`)).body.prizes;
    expect(shown[1]).toEqual({
      title: 'B',
      description: null,
      cashValuePence: null,
      cashAlternativePence: null,
      image: null,
    });
    // The form sends the list back in today's shape: the same prizes, so the save is not refused.
    const same = await put(admin, `/api/admin/competitions/${id}`, {
      prizes: [
        { title: 'A', cashValuePence: 100 },
        { title: 'B', cashValuePence: null },
      ],
    });
    expect(same.status, same.text).toBe(200);
    const changed = await put(admin, `/api/admin/competitions/${id}`, {
      prizes: [{ title: 'A', cashValuePence: 100, cashAlternativePence: 50 }, { title: 'B' }],
    });
    expect(changed.status).toBe(409);
  });
});
