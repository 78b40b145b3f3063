import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { patch, put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The facts a competition page shows (docs/product.md#odds-and-facts): what the public API carries
// for them (total tickets, cap, cash alternative, end date) and, after the draw, the winner's town.

describe.skipIf(engineUnavailable())(`odds and facts on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });

  it('an admin sets a cash alternative in pounds; it is stored in pence and shown publicly', async () => {
    const id = await insertCompetition(db, { totalTickets: 250 });
    expect((await admin.get(`/api/competitions/${id}`)).body).toMatchObject({
      cashAlternative: null,
      totalTickets: 250,
      maxTicketsPerUser: expect.any(Number),
      endDate: expect.any(String),
    });
    const res = await put(admin, `/api/admin/competitions/${id}`, { cashAlternative: 1250.5 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.cashAlternative).toBe(1250.5);
    expect((await db('competitions').where({ id }).first()).cashAlternativePence).toBe(125050);
    expect((await admin.get(`/api/competitions/${id}`)).body.cashAlternative).toBe(1250.5);
    const bad = await put(admin, `/api/admin/competitions/${id}`, { cashAlternative: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields.cashAlternative).toBe('The cash alternative must be a positive amount');
    expect(
      (await put(admin, `/api/admin/competitions/${id}`, { cashAlternative: null })).body.cashAlternative,
    ).toBe(null);
  });

  it("an admin records the winner's town; the public result shows it with the name (audit-logged)", async () => {
    const id = await insertCompetition(db, { status: 'ended' });
    const buyer = await insertUser(db, { firstName: 'Ann', lastName: 'Lee' });
    await sellTickets(db, id, buyer, [7]);
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
    expect((await admin.get(`/api/competitions/${id}`)).body.draw).toMatchObject({
      winnerName: 'Ann L.',
      winnerTown: null,
    });

    const saved = await patch(admin, `/api/admin/winners/${id}`, { winnerTown: '  Truro ' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ winnerTown: 'Truro', prizeDeliveredAt: null });
    const pub = (await admin.get(`/api/competitions/${id}`)).body;
    expect(pub.draw).toMatchObject({ winnerName: 'Ann L.', winnerTown: 'Truro' });
    expect(pub.ticketsSold).toBe(1);
    const trail = (await admin.get(`/api/admin/competitions/${id}`)).body.auditLog as Array<{
      action: string;
    }>;
    expect(trail.map((e) => e.action)).toContain('competition.winner_town');

    const tooLong = await patch(admin, `/api/admin/winners/${id}`, { winnerTown: 'x'.repeat(101) });
    expect(tooLong.status).toBe(400);
    expect((await patch(admin, `/api/admin/winners/${id}`, {})).status).toBe(400);
    expect((await patch(admin, '/api/admin/winners/999999', { winnerTown: 'Bude' })).status).toBe(404);
    const { client } = await signedInCustomer(server.url);
    expect((await patch(client, `/api/admin/winners/${id}`, { winnerTown: 'Bude' })).status).toBe(403);
    // Cleared with an empty string.
    expect((await patch(admin, `/api/admin/winners/${id}`, { winnerTown: '' })).body.winnerTown).toBeNull();
  });
});
