import type { Knex } from 'knex';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AdminWinnerSchema } from '../../../contract/draw';
import { WRONG_POSTAL_ANSWER } from '../../../contract/postal';
import { signedInAdmin } from '../../support/admin';
import { ticketsOf } from '../../support/checkout';
import { insertCompetition } from '../../support/fixtures';
import type { TestClient } from '../../support/httpClient';
import { mailTo } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Postal entrants are full entrants (issue 39 §3): the postcard's answer to the skill question is
// recorded and a wrong one refused; a postal winner is named on /winners, shown in full to the
// admin, e-mailed like any other, and the orders list and purchases CSV name the postcard.

const today = () => new Date().toISOString().slice(0, 10);
const postcard = (overrides: Record<string, unknown> = {}) => ({
  name: 'Pat Penhaligon',
  email: 'pat.penhaligon@example.co.uk',
  address: '3 Chapel Street\nPenzance',
  postcode: 'TR18 4AQ',
  receivedAt: today(),
  answer: '365',
  ...overrides,
});
const entriesPath = (id: number) => `/api/admin/competitions/${id}/postal-entries`;
const POOL = [
  {
    question: 'What colour is a Cornish pasty crimp?',
    options: ['Golden', 'Blue', 'Green'],
    answer: 'Golden',
  },
  { question: 'How many legs has a gull?', options: ['One', 'Two', 'Three'], answer: 'Two' },
];

describe.skipIf(engineUnavailable())(`postal answers and winners on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(
    async (s) => {
      server = s;
      db = s.database.db;
      admin = (await signedInAdmin(s.url)).client;
    },
    { env: { DRAW_AUTO_AFTER_SECONDS: '0' } },
  );

  const withPool = async () => {
    const id = await insertCompetition(db, { totalTickets: 20 });
    await db('competitions')
      .where({ id })
      .update({ skillQuestions: JSON.stringify(POOL) });
    return id;
  };

  it("stores a right answer to any of the pool's questions, refuses a wrong or missing one with nothing stored", async () => {
    const id = await withPool();
    const right = await admin.post(entriesPath(id), postcard({ answer: ' golden ' }));
    expect(right.status, right.text).toBe(201);
    expect(right.body.entry).toMatchObject({ name: 'Pat Penhaligon', answer: 'golden' });
    const other = await admin.post(
      entriesPath(id),
      postcard({ answer: 'Two', email: 'jo@example.co.uk', address: '1 Quay', name: 'Jo Kitto' }),
    );
    expect(other.status, other.text).toBe(201);
    expect(await db('postalEntries').where({ competitionId: id }).orderBy('id').pluck('answer')).toEqual([
      'golden',
      'Two',
    ]);
    const list = await admin.get(entriesPath(id));
    expect(list.body.entries.map((e: { answer: string }) => e.answer)).toEqual(['Two', 'golden']);

    const before = await db('orders').count({ n: '*' }).first();
    for (const [answer, message] of [
      ['365', WRONG_POSTAL_ANSWER],
      ['Blue', WRONG_POSTAL_ANSWER],
      ['  ', 'Answer to the skill question is required'],
      [undefined, 'Answer to the skill question is required'],
    ] as const) {
      const res = await admin.post(
        entriesPath(id),
        postcard({ answer, email: 'wrong@example.co.uk', address: '9 Wrong Way' }),
      );
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await db('postalEntries').where({ competitionId: id })).toHaveLength(2);
    expect(await ticketsOf(db, id)).toHaveLength(2);
    expect(await db('orders').count({ n: '*' }).first()).toEqual(before);
    expect(
      await db('auditLog').where({ action: 'competition.postal_entry', entityId: String(id) }),
    ).toHaveLength(2);
  });

  it('imports the answer column: a wrong answer refuses its row only; the column is required', async () => {
    const id = await withPool();
    const csv = [
      'name,email,address,postcode,receivedAt,answer',
      `Ann Pascoe,ann@example.co.uk,1 Quay Street,TR11 3HH,${today()},Golden`,
      `Bob Wrong,bob@example.co.uk,2 Quay Street,TR11 3HH,${today()},Blue`,
      `Cat Blank,cat@example.co.uk,3 Quay Street,TR11 3HH,${today()},`,
      `Dan Gull,dan@example.co.uk,4 Quay Street,TR11 3HH,${today()},two`,
    ].join('\r\n');
    const res = await admin.post(`${entriesPath(id)}/import`, { csv });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ entered: 2, refused: 2 });
    expect(res.body.rows).toMatchObject([
      { row: 1, outcome: 'entered', name: 'Ann Pascoe' },
      { row: 2, outcome: 'refused', name: 'Bob Wrong', reason: WRONG_POSTAL_ANSWER },
      { row: 3, outcome: 'refused', reason: 'Answer to the skill question is required' },
      { row: 4, outcome: 'entered', name: 'Dan Gull' },
    ]);
    expect(await db('postalEntries').where({ competitionId: id }).orderBy('id').pluck('answer')).toEqual([
      'Golden',
      'two',
    ]);
    expect(await ticketsOf(db, id)).toHaveLength(2);

    const noColumn = await admin.post(`${entriesPath(id)}/import`, {
      csv: `name,email,address,postcode,receivedAt\nEve,eve@example.co.uk,5 Quay,TR11 3HH,${today()}`,
    });
    expect(noColumn.status).toBe(400);
    expect(noColumn.body.message).toContain('missing: answer');
    expect(await ticketsOf(db, id)).toHaveLength(2);
  });

  it('names postal winners on /winners, shows them in full to the admin, e-mails them, and lists their orders and CSV rows', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Penzance Hamper Draw',
      ticketPrice: 1.5,
      totalTickets: 2,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'cash' },
      prizes: [{ title: 'Hamper' }, { title: '£50 cash' }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    // Both numbers go by post: one postcard wins the 1st prize, the other the 2nd.
    const pat = await admin.post(entriesPath(id), postcard());
    const jo = await admin.post(
      entriesPath(id),
      postcard({ name: 'Jo Kitto', email: 'jo.kitto@example.co.uk', address: '7 Fore Street\nSt Ives' }),
    );
    expect([pat.status, jo.status]).toEqual([201, 201]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);

    const byNumber = new Map([
      [pat.body.number as number, { name: 'Pat Penhaligon', public: 'Pat P.', email: postcard().email }],
      [jo.body.number as number, { name: 'Jo Kitto', public: 'Jo K.', email: 'jo.kitto@example.co.uk' }],
    ]);
    const winners = await admin.get('/api/winners');
    const mine = winners.body.find((w: { competitionId: number }) => w.competitionId === id);
    const prizes = mine.prizes as Array<{ position: number; winningNumber: number; winnerName: string }>;
    expect(prizes).toHaveLength(2);
    for (const p of prizes) expect(p.winnerName).toBe(byNumber.get(p.winningNumber)!.public);
    expect(mine.winnerName).toBe(byNumber.get(mine.winningNumber)!.public);

    // The admin's panel: the postcard in full, and both winners e-mailed.
    const adminWinners = await admin.get('/api/admin/winners');
    const record = adminWinners.body.find((w: { competitionId: number }) => w.competitionId === id);
    expect(v.safeParse(AdminWinnerSchema, record).success).toBe(true);
    for (const p of record.prizes) {
      const who = byNumber.get(p.winningNumber)!;
      expect(p.winner).toMatchObject({
        userId: null,
        postalEntry: { name: who.name, email: who.email, postcode: 'TR18 4AQ' },
      });
      expect(p.winnerNotifiedAt).not.toBeNull();
      const mails = mailTo(server.database.dataDir, who.email);
      expect(mails.map((m) => m.subject)).toEqual([
        'You won "Penzance Hamper Draw" with Westcountry Prizes!',
      ]);
      expect(mails[0]!.text).toContain(`Winning ticket number: ${p.winningNumber}`);
      expect(mails[0]!.text).toContain(who.name.split(' ')[0]);
    }
    expect(record.winner.postalEntry.address).toMatch(/Penzance|St Ives/);
    expect(record.winnerNotifiedAt).not.toBeNull();

    // The orders list (found by the postcard's name) and the order's detail.
    const orders = await admin.get('/api/admin/orders?search=penhaligon');
    expect(orders.status, orders.text).toBe(200);
    const found = orders.body.orders as Array<{ id: number; postalEntrant: { name: string } | null }>;
    expect(found.every((o) => o.postalEntrant?.name === 'Pat Penhaligon')).toBe(true);
    expect(found.find((o) => o.id === pat.body.entry.orderId)).toMatchObject({
      user: null,
      postalEntrant: { name: 'Pat Penhaligon', email: postcard().email },
      subtotal: 0,
      paymentMethod: 'Free postal entry',
    });
    const detail = await admin.get(`/api/admin/orders/${pat.body.entry.orderId}`);
    expect(detail.body.postalEntrant).toEqual({ name: 'Pat Penhaligon', email: postcard().email });

    // The purchases CSV: the postcard's name and e-mail, £0.00, 'postal'.
    const csv = await admin.get(`/api/admin/competitions/${id}/export-csv`);
    const lines = csv.text
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/,Ticket Price,Entry Route$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^ORD-\d+,\d+,1,Pat Penhaligon,,pat\.penhaligon@example\.co\.uk,.*Z,0\.00,postal$/,
      ),
      expect.stringMatching(/^ORD-\d+,\d+,1,Jo Kitto,,jo\.kitto@example\.co\.uk,.*Z,0\.00,postal$/),
    ]);
  });
});
