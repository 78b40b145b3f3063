import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { del, patch, signedInAdmin } from '../../support/admin';
import { expectTicketInvariants } from '../../support/checkout';
import { insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { useTestServer } from '../../support/testServer';

// Issue 16, point 5: a draw is final. Its orders cannot be cancelled afterwards, a winner whose
// prize is undelivered cannot be deleted, and a delivered winner's record outlives the account,
// anonymised.

const DRAWN = "This competition has been drawn; its orders can't be cancelled";

describe.skipIf(engineUnavailable())(`drawn results stay final on ${testEngine()}`, () => {
  let db: Knex;
  let admin: TestClient;
  useTestServer(
    async (s) => {
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0' } },
  );

  /** A competition Jane Smith entered alone, closed and drawn: she wins it with `orderId`. */
  async function drawnWithWinner(title: string) {
    const id = await insertCompetition(db, { title, totalTickets: 10 });
    const userId = await insertUser(db, { firstName: 'Jane', lastName: 'Smith' });
    const orderId = await sellTickets(db, id, userId, [3, 4]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    return { id, userId, orderId };
  }

  it('refuses to cancel the winning order of a drawn competition, and changes nothing', async () => {
    const { id, orderId } = await drawnWithWinner('Drawn hamper');
    const before = await db('tickets').where({ competitionId: id }).orderBy('number');
    const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Cancelled in a test' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: DRAWN, code: 'conflict', details: { competitionIds: [id] } });
    expect(await db('orders').where({ id: orderId }).first()).toMatchObject({
      status: 'completed',
      refundReason: null,
      cancelledAt: null,
    });
    expect(await db('tickets').where({ competitionId: id }).orderBy('number')).toEqual(before);
    expect(Number((await db('competitions').where({ id }).first()).ticketsSold)).toBe(2);
    expect(await db('auditLog').where({ action: 'order.cancel', entityId: String(orderId) })).toEqual([]);
  });

  it('refuses every order of a drawn competition, winning or not; an undrawn one can still be cancelled', async () => {
    const [first, second] = [await insertUser(db), await insertUser(db)];
    const id = await insertCompetition(db, { totalTickets: 10 });
    const orders = [await sellTickets(db, id, first, [2]), await sellTickets(db, id, second, [5])];
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000 });
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
    for (const orderId of orders) {
      const res = await admin.post(`/api/admin/orders/${orderId}/cancel`, { reason: 'Cancelled in a test' });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(DRAWN);
    }
    expect(Number((await db('competitions').where({ id }).first()).ticketsSold)).toBe(2);

    const undrawn = await insertCompetition(db, { totalTickets: 10 });
    const open = await sellTickets(db, undrawn, first, [1]);
    expect(
      (await admin.post(`/api/admin/orders/${open}/cancel`, { reason: 'Cancelled in a test' })).status,
    ).toBe(200);
    await expectTicketInvariants(db);
  });

  it('a winner with an undelivered prize cannot be deleted; once delivered, the record stays, anonymised', async () => {
    const { id, userId } = await drawnWithWinner('Drawn bicycle');
    const username = (await db('users').where({ id: userId }).first()).username as string;
    const refused = await del(admin, `/api/admin/users/${userId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message:
        'This account won "Drawn bicycle" and the prize has not been delivered yet, so it cannot be deleted until the prize is marked delivered.',
      code: 'conflict',
      details: { competitionIds: [id] },
    });
    expect(await db('users').where({ id: userId }).first()).toMatchObject({
      deletedAt: null,
      firstName: 'Jane',
      username,
    });

    // Before: the public name.
    const winnersBefore = (await admin.get('/api/winners')).body as Array<Record<string, unknown>>;
    expect(winnersBefore.find((w) => w.competitionId === id)).toMatchObject({ winnerName: 'Jane S.' });

    // A prize of no stated value needs the winner's age check first (ageChecks.test.ts).
    expect((await admin.post(`/api/admin/users/${userId}/age-verification`, {})).status).toBe(200);
    expect((await patch(admin, `/api/admin/winners/${id}`, { prizeDelivered: true })).status).toBe(200);
    const deleted = await del(admin, `/api/admin/users/${userId}`);
    expect(deleted.status, deleted.text).toBe(200);

    const winners = await admin.get('/api/winners');
    const entry = (winners.body as Array<Record<string, unknown>>).find((w) => w.competitionId === id);
    expect(entry).toMatchObject({
      title: 'Drawn bicycle',
      winnerName: 'Anonymous winner',
      winningNumber: expect.any(Number),
    });
    const detail = await admin.get(`/api/competitions/${id}`);
    expect(detail.body.draw).toMatchObject({ winnerName: 'Anonymous winner' });
    for (const text of [JSON.stringify(entry), JSON.stringify(detail.body)]) {
      expect(text).not.toContain('Jane');
      expect(text).not.toContain(username);
    }
  });
});
