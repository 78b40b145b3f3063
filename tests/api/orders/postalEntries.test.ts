import type { Knex } from 'knex';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  EntryTermsSchema,
  PostalEntryCreatedSchema,
  PostalEntryListSchema,
  PostalImportResultSchema,
} from '../../../contract/postal';
import { shopper } from '../../support/accounts';
import { put, signedInAdmin, signedInCustomer } from '../../support/admin';
import {
  card,
  customer,
  expectTicketInvariants,
  startCheckout,
  ticketsOf,
  ticketsSold,
} from '../../support/checkout';
import { holdTickets, insertCompetition, insertUser, sellTickets } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { collect, connectSocket, type TestSocket, waitFor, watch } from '../../support/sockets';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// The free postal entry route (Gambling Act 2005 s.14, DCMS "clear free entry route"): a postcard
// recorded by an admin gets a random free number sold exactly like a bought ticket.

const today = () => new Date().toISOString().slice(0, 10);
const postcard = (overrides: Record<string, unknown> = {}) => ({
  name: 'Jane Trelawny',
  email: 'jane@example.co.uk',
  address: '12 High Street\nTruro',
  postcode: 'tr1 2ab',
  receivedAt: today(),
  answer: '365',
  ...overrides,
});
const entriesPath = (id: number) => `/api/admin/competitions/${id}/postal-entries`;

describe.skipIf(engineUnavailable())(`postal entries on ${testEngine()}`, () => {
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

  const withCap = async (id: number, cap: number) =>
    db('competitions').where({ id }).update({ maxTicketsPerUser: cap });

  it('gives a postcard a random free number sold like a bought ticket, live to every watcher', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 50 });
    const socket = await connectSocket(server.url);
    sockets.push(socket);
    await watch(socket, competitionId);
    const purchased = collect(socket, 'tickets:purchased');

    const res = await admin.post(entriesPath(competitionId), postcard());
    expect(res.status, res.text).toBe(201);
    const number = res.body.number as number;
    expect(number).toBeGreaterThanOrEqual(1);
    expect(number).toBeLessThanOrEqual(50);
    expect(res.body.entry).toMatchObject({
      number,
      name: 'Jane Trelawny',
      postcode: 'TR1 2AB',
      status: 'entered',
    });

    // The ticket: a sold row under the same unique key, on a £0 'postal' order, counted as sold.
    const [ticket] = await ticketsOf(db, competitionId);
    expect(ticket).toMatchObject({ number, status: 'sold', userId: null });
    const order = await db('orders').where({ id: ticket!.orderId }).first();
    expect(order).toMatchObject({ paymentProvider: 'postal', status: 'completed' });
    expect(Number(order.totalPence)).toBe(0);
    expect(await ticketsSold(db, competitionId)).toBe(1);

    // Everywhere a bought number shows: the public entries list, the draw's list, the grid.
    const entries = await admin.get(`/api/competitions/${competitionId}/entries`);
    expect(entries.body).toEqual([{ ownerName: 'Jane T.', ticketNumbers: [number] }]);
    await waitFor(() => purchased.length === 1, 2000, 'tickets:purchased');
    expect(purchased[0]).toMatchObject({ competitionId, numbers: [number], ticketsSold: 1 });

    // Recorded: the number's history, the audit log, the back office list.
    const lookup = await admin.get(
      `/api/admin/tickets/lookup?competitionId=${competitionId}&number=${number}`,
    );
    expect(lookup.status, lookup.text).toBe(200);
    expect(JSON.stringify(lookup.body)).toContain('postal entry');
    const audit = await db('auditLog')
      .where({ action: 'competition.postal_entry' })
      .orderBy('id', 'desc')
      .first();
    expect(audit).toMatchObject({ entityType: 'competition', entityId: String(competitionId) });
    expect(JSON.parse(audit.afterJson)).toMatchObject({ number, name: 'Jane Trelawny' });
    const list = await admin.get(entriesPath(competitionId));
    expect(list.status).toBe(200);
    expect(v.safeParse(PostalEntryCreatedSchema, res.body).success).toBe(true);
    expect(v.safeParse(PostalEntryListSchema, list.body).success).toBe(true);
    expect(list.body.entries).toEqual([expect.objectContaining({ number, email: 'jane@example.co.uk' })]);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const competitionId = await insertCompetition(db);
    for (const [body, message] of [
      [postcard({ postcode: 'NOT A POSTCODE' }), 'Please enter a valid UK postcode'],
      [postcard({ email: 'nope' }), 'Please enter a valid email address'],
      [postcard({ name: '  ' }), 'Name is required'],
      [postcard({ receivedAt: '2999-01-01' }), 'Date received cannot be in the future'],
      [postcard({ userId: 999_999 }), 'There is no customer account with id 999999.'],
    ] as const) {
      const res = await admin.post(entriesPath(competitionId), body);
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await ticketsOf(db, competitionId)).toEqual([]);
    expect(await db('postalEntries').where({ competitionId })).toEqual([]);
  });

  it('refuses entries once the competition is closed, and is for admins only', async () => {
    const ended = await insertCompetition(db, { status: 'ended' });
    const pastEnd = await insertCompetition(db, { endDate: Date.now() - 1000 });
    for (const id of [ended, pastEnd]) {
      const res = await admin.post(entriesPath(id), postcard());
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject({ code: 'closed', message: expect.stringContaining('closed') });
    }
    expect((await admin.post(entriesPath(999_999), postcard())).status).toBe(404);
    const open = await insertCompetition(db);
    const { client: customer } = await signedInCustomer(server.url);
    expect((await customer.post(entriesPath(open), postcard())).status).toBe(403);
    expect((await customer.get(entriesPath(open))).status).toBe(403);
    expect(await ticketsOf(db, open)).toEqual([]);
  });

  it('counts an entrant without an account by normalised e-mail or address and postcode', async () => {
    const competitionId = await insertCompetition(db);
    await withCap(competitionId, 2);
    const add = (overrides: Record<string, unknown>) =>
      admin.post(entriesPath(competitionId), postcard(overrides));
    expect((await add({})).status).toBe(201);
    // The same household spelled differently, another e-mail: counts with the first.
    const sameAddress = await add({
      email: 'other@example.co.uk',
      address: '12 high street, TRURO',
      postcode: 'TR12AB',
    });
    expect(sameAddress.status, sameAddress.text).toBe(201);
    // A third postcard from that household is over the cap of 2.
    const third = await add({ email: 'third@example.co.uk', address: '12, High Street, Truro' });
    expect(third.status, third.text).toBe(409);
    expect(third.body).toMatchObject({ code: 'over_cap', details: { limit: 2, current: 2 } });
    // Someone else entirely is not affected.
    expect(
      (await add({ email: 'bob@example.co.uk', address: '3 Low Road', postcode: 'PL1 1AA' })).status,
    ).toBe(201);

    // The same mailbox (case and a +tag) from another address counts too.
    const other = await insertCompetition(db);
    await withCap(other, 1);
    expect((await admin.post(entriesPath(other), postcard())).status).toBe(201);
    const sameEmail = await admin.post(
      entriesPath(other),
      postcard({ email: 'Jane+comp@Example.co.uk', address: '1 Other Road', postcode: 'PL1 1AA' }),
    );
    expect(sameEmail.status, sameEmail.text).toBe(409);
    expect(await ticketsSold(db, competitionId)).toBe(3);
  });

  it('refuses a postal entry for an account taking a break, and takes no number', async () => {
    const competitionId = await insertCompetition(db);
    const userId = await insertUser(db);
    await db('users')
      .where({ id: userId })
      .update({ selfExcludedAt: Date.now(), selfExcludedUntil: Date.now() + 7 * 86_400_000 });
    const res = await admin.post(entriesPath(competitionId), postcard({ userId }));
    expect(res.status, res.text).toBe(409);
    expect(res.body).toMatchObject({ code: 'self_excluded' });
    expect(res.body.message).toMatch(/^This customer is taking a break until .*: no entries until then\.$/);
    expect(await db('tickets').where({ competitionId })).toHaveLength(0);
    expect(await db('postalEntries').where({ competitionId })).toHaveLength(0);
  });

  it('counts a postal entry with an account together with the tickets that account bought', async () => {
    const competitionId = await insertCompetition(db);
    await withCap(competitionId, 3);
    const userId = await insertUser(db);
    await sellTickets(db, competitionId, userId, [1, 2]);
    const first = await admin.post(entriesPath(competitionId), postcard({ userId }));
    expect(first.status, first.text).toBe(201);
    expect(first.body.entry).toMatchObject({ userId, username: expect.any(String) });
    // On the account: its ticket and My Entries row.
    const ticket = await db('tickets').where({ competitionId, number: first.body.number }).first();
    expect(Number(ticket.userId)).toBe(userId);
    expect(await db('userEntries').where({ userId, competitionId, orderId: ticket.orderId })).toHaveLength(1);
    const over = await admin.post(
      entriesPath(competitionId),
      postcard({ userId, email: 'another@example.co.uk' }),
    );
    expect(over.status, over.text).toBe(409);
    expect(over.body).toMatchObject({ code: 'over_cap', details: { limit: 3, current: 3 } });
  });

  it('sells out an auto-win competition with its last number and draws it, postal entries included', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 3, autoWin: true });
    const userId = await insertUser(db);
    await sellTickets(db, competitionId, userId, [1, 2]);
    const res = await admin.post(entriesPath(competitionId), postcard());
    expect(res.status, res.text).toBe(201);
    expect(res.body.number).toBe(3);
    const competition = await db('competitions').where({ id: competitionId }).first();
    expect(competition.status).toBe('ended');
    // The sell-out fixes the beacon round at once; the draw follows when that round is out.
    expect(competition.drawBeaconRound).not.toBeNull();
    let draw: { entries: string } | undefined;
    for (let i = 0; i < 150 && !draw; i++) {
      draw = await db('draws').where({ competitionId }).first();
      if (!draw) await new Promise((r) => setTimeout(r, 100));
    }
    expect(draw).toBeTruthy();
    expect(JSON.parse(draw!.entries)).toEqual([1, 2, 3]);
    // Closed now: the next postcard is refused.
    expect(
      (await admin.post(entriesPath(competitionId), postcard({ email: 'x@example.co.uk' }))).status,
    ).toBe(409);
  });

  it("takes a number from someone's expired hold, never from a live one", async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 3 });
    await holdTickets(db, competitionId, [1], Date.now() + 600_000);
    await holdTickets(db, competitionId, [2], Date.now() - 1000);
    const userId = await insertUser(db);
    await sellTickets(db, competitionId, userId, [3]);
    const res = await admin.post(entriesPath(competitionId), postcard());
    expect(res.status, res.text).toBe(201);
    expect(res.body.number).toBe(2);
    const full = await admin.post(
      entriesPath(competitionId),
      postcard({ email: 'z@example.co.uk', address: '9 Z Road' }),
    );
    expect(full.status, full.text).toBe(409);
    expect(full.body).toMatchObject({
      code: 'not_enough_tickets',
      message: 'Every number in this competition has been taken.',
    });
    await expectTicketInvariants(db);
  });

  it('imports a day of post: per-row numbers and reasons, a refused row changes nothing', async () => {
    const competitionId = await insertCompetition(db, { totalTickets: 100 });
    await withCap(competitionId, 1);
    const csv = [
      'name,email,address,postcode,receivedAt,answer',
      `Ann Pascoe,ann@example.co.uk,"1 Quay Street\nFalmouth",TR11 3HH,${today()},365`,
      `Bad Postcode,bad@example.co.uk,2 Quay Street,XYZ,${today()},365`,
      `Ann Again,ANN@example.co.uk,9 Elsewhere,PL1 1AA,${today()},365`,
      `Ben Kitto,ben@example.co.uk,4 Fore Street,PL25 5AA,${today()},365`,
    ].join('\r\n');
    const res = await admin.post(`${entriesPath(competitionId)}/import`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ entered: 2, refused: 2 });
    expect(v.safeParse(PostalImportResultSchema, res.body).success).toBe(true);
    const rows = res.body.rows as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.outcome)).toEqual(['entered', 'refused', 'refused', 'entered']);
    expect(rows[1]).toMatchObject({
      row: 2,
      name: 'Bad Postcode',
      reason: 'Please enter a valid UK postcode',
    });
    expect(rows[2]).toMatchObject({
      row: 3,
      reason: expect.stringContaining('the most allowed per person (1)'),
    });
    const sold = (await ticketsOf(db, competitionId)).map((t) => t.number).sort((a, b) => a - b);
    expect(sold).toEqual([rows[0]!.number, rows[3]!.number].sort((a, b) => Number(a) - Number(b)));
    expect(await db('postalEntries').where({ competitionId })).toHaveLength(2);
    const entry = await db('postalEntries').where({ competitionId, number: rows[0]!.number }).first();
    expect(entry.address).toBe('1 Quay Street\nFalmouth');
    expect(await ticketsSold(db, competitionId)).toBe(2);
  });

  it('refuses a CSV it cannot read as a whole, with nothing applied', async () => {
    const competitionId = await insertCompetition(db);
    for (const [csv, message] of [
      [`name,email,address\nAnn,ann@example.co.uk,1 Street`, 'missing: postcode, receivedAt, answer'],
      [
        `name,email,address,postcode,receivedAt,answer,colour\nAnn,a@b.co,1 St,TR1 1AA,${today()},365,red`,
        'not recognised: colour',
      ],
      [`name,email,address,postcode,receivedAt,answer\n"Ann,unterminated`, 'could not be read'],
    ] as const) {
      const res = await admin.post(`${entriesPath(competitionId)}/import`, { csv });
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect(await ticketsOf(db, competitionId)).toEqual([]);
  });

  it('never gives a postal entry a number a buyer holds or bought, however they race', async () => {
    const total = 40;
    const competitionId = await insertCompetition(db, { totalTickets: total });
    await withCap(competitionId, total);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => customer(server.url, competitionId)));
    const postcards = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        admin.post(
          entriesPath(competitionId),
          postcard({ email: `p${from + i}@example.co.uk`, address: `${from + i} Road` }),
        ),
      );

    // Postcards racing Lucky Dip holds, then racing the same buyers paying for them.
    const first = await Promise.all([
      ...buyers.map((b) => b.client.post('/api/cart', { competitionId, quantity: 3 })),
      ...postcards(0, 10),
    ]);
    expect(first.map((r) => r.status)).toEqual(Array(16).fill(201));
    const second = await Promise.all([
      ...buyers.map(async (b) => {
        const { clientSecret } = await startCheckout(b.client);
        return b.client.post('/api/payments/sandbox/confirm', { clientSecret, ...card() });
      }),
      ...postcards(10, 10),
    ]);
    expect(second.map((r) => r.status)).toEqual(Array(16).fill(200).fill(201, 6));

    // The invariant, queried: every number once, sold counts right, every postcard its own number
    // and every buyer's three numbers sold to them.
    await expectTicketInvariants(db);
    const postal = [...first.slice(buyers.length), ...second.slice(buyers.length)].map((r) => r.body.number);
    expect(new Set(postal).size).toBe(20);
    const sold = (await db('tickets as t')
      .join('orders as o', 'o.id', 't.orderId')
      .where({ 't.competitionId': competitionId, 't.status': 'sold' })
      .select('t.number', 'o.paymentProvider')) as Array<{ number: number; paymentProvider: string }>;
    expect(sold).toHaveLength(38);
    expect(
      sold
        .filter((r) => r.paymentProvider === 'postal')
        .map((r) => r.number)
        .sort((a, b) => a - b),
    ).toEqual([...postal].sort((a, b) => a - b));
    expect(await ticketsSold(db, competitionId)).toBe(38);
  }, 120_000);

  it('states the live settings for the Terms: postal address, hold minutes and the default cap', async () => {
    const before = await admin.get('/api/entry-terms');
    expect(v.safeParse(EntryTermsSchema, before.body).success).toBe(true);
    expect(before.body).toEqual({
      postalAddress: null,
      holdMinutes: 10,
      defaultMaxTicketsPerUser: 100,
      postalProcessingDays: 5,
    });
    expect((await put(admin, '/api/admin/settings/postal-address', { postalAddress: ' ' })).status).toBe(400);
    const set = await put(admin, '/api/admin/settings/postal-address', {
      postalAddress: 'PO Box 1\nTruro\nTR1 9ZZ',
    });
    expect(set.status, set.text).toBe(200);
    await put(admin, '/api/admin/settings/ticket-cap', { defaultMaxTicketsPerUser: 25 });
    const after = await shopper(server.url);
    expect((await after.get('/api/entry-terms')).body).toMatchObject({
      postalAddress: 'PO Box 1\nTruro\nTR1 9ZZ',
      defaultMaxTicketsPerUser: 25,
    });
    expect(await db('auditLog').where({ action: 'setting.postal_address' })).toHaveLength(1);
  });
});
