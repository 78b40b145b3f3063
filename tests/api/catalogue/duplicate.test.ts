import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { holdTickets } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Duplicate and relist (api/catalogue/launch/duplicate.ts): a new draft with the same fields,
// prizes, skill pool and instant-win prizes, its own seed and commitment and new instant-win
// numbers, no orders or tickets; admins only.

describe.skipIf(engineUnavailable())(`duplicating a competition on ${testEngine()}`, () => {
  let server: TestServer;
  let db: Knex;
  let admin: TestClient;
  useTestServer(async (s) => {
    server = s;
    db = s.database.db;
    admin = (await signedInAdmin(s.url)).client;
  });
  const source = async () => {
    const res = await admin.post('/api/admin/competitions', {
      title: 'Weekend in Cornwall',
      description: 'Two nights by the sea',
      ticketPrice: 2.5,
      totalTickets: 500,
      endDate: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      details: { category: 'Travel', productName: 'Cottage break' },
      features: ['Two nights', 'Breakfast'],
      maxTicketsPerUser: 25,
      cashAlternative: 300,
      skillQuestions: [{ question: 'What is 2 + 2?', options: ['3', '4', '5'], answer: '4' }],
      prizes: [{ title: 'Weekend in Cornwall' }, { title: 'Cream tea for two' }],
      instantWins: [
        { title: '£10 site credit', kind: 'credit', amountPence: 1000, count: 10 },
        { title: 'Beach towel', kind: 'prize', cashValuePence: 1500, count: 2 },
      ],
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const numbersOf = async (id: number) =>
    (await db('instantWins').where({ competitionId: id }).orderBy('number').select('number')).map(
      (r: { number: number }) => Number(r.number),
    );
  const prizesOf = async (id: number) =>
    (
      await db('instantWins')
        .where({ competitionId: id })
        .select('title', 'kind', 'amountPence', 'cashValuePence')
    )
      .map((w) => JSON.stringify([w.title, w.kind, w.amountPence, w.cashValuePence]))
      .sort();

  it('makes a new draft with the same fields and prizes, its own seed and new instant-win numbers, no sales', async () => {
    const id = await source();
    await holdTickets(db, id, [3, 4], Date.now() + 600_000);

    const sourceAudit = () => db('auditLog').where({ entityType: 'competition', entityId: String(id) });
    const sourceAuditBefore = await sourceAudit();
    const res = await admin.post(`/api/admin/competitions/${id}/duplicate`);
    expect(res.status).toBe(201);
    const copyId = res.body.id as number;
    expect(copyId).not.toBe(id);
    const [original, copy] = await Promise.all(
      [id, copyId].map(async (c) => (await admin.get(`/api/admin/competitions/${c}`)).body),
    );
    const same = (c: Record<string, unknown>) => {
      const { id: _id, status, createdAt, updatedAt, ticketsSold, ...fields } = c;
      return Object.fromEntries(
        Object.entries(fields).filter(([k]) => !/draw|audit|winner|instant|claims|postal|hasSales/i.test(k)),
      );
    };
    expect(copy.status).toBe('draft');
    expect(copy.ticketsSold).toBe(0);
    expect(same(copy)).toEqual(same(original));

    const rows = await db('competitions')
      .whereIn('id', [id, copyId])
      .orderBy('id')
      .select('drawSeed', 'drawCommitment');
    expect(rows[1].drawSeed).not.toBe(rows[0].drawSeed);
    expect(rows[1].drawCommitment).not.toBe(rows[0].drawCommitment);
    expect(await prizesOf(copyId)).toEqual(await prizesOf(id));
    expect(await numbersOf(copyId)).toHaveLength(12);
    expect(await numbersOf(copyId)).not.toEqual(await numbersOf(id));
    expect(await db('tickets').where({ competitionId: copyId }).count('* as n')).toEqual([{ n: 0 }]);
    expect(await db('orderItems').where({ competitionId: copyId }).count('* as n')).toEqual([{ n: 0 }]);
    const audit = await db('auditLog')
      .where({ action: 'competition.duplicate' })
      .orderBy('id', 'desc')
      .first();
    expect(audit).toMatchObject({ entityId: String(copyId) });
    expect(await sourceAudit()).toEqual(sourceAuditBefore);

    // Published later, it opens with its own instant-win commitment.
    expect(
      (await admin.request('PUT', `/api/admin/competitions/${copyId}`, { status: 'active' })).status,
    ).toBe(200);
    const commitments = (
      await db('competitions').whereIn('id', [id, copyId]).orderBy('id').select('instantWinCommitment')
    ).map((r: { instantWinCommitment: string | null }) => r.instantWinCommitment);
    expect(commitments[1]).toMatch(/^[0-9a-f]{64}$/);
    expect(commitments[1]).not.toBe(commitments[0]);
  });

  it('relists an ended competition with its end date moved on; 404 for none, 403 to customers, 401 to visitors', async () => {
    const id = await source();
    await db('competitions')
      .where({ id })
      .update({ status: 'ended', endDate: Date.now() - 1000 });
    const res = await admin.post(`/api/admin/competitions/${id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = await db('competitions').where({ id: res.body.id }).first('status', 'endDate');
    expect(copy.status).toBe('draft');
    expect(Number(copy.endDate)).toBeGreaterThan(Date.now());

    expect((await admin.post('/api/admin/competitions/999999/duplicate')).status).toBe(404);
    const { client: customer } = await signedInCustomer(server.url);
    const before = await db('competitions').count('* as n');
    expect((await customer.post(`/api/admin/competitions/${id}/duplicate`)).status).toBe(403);
    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken(); // so the 401 comes from the admin guard, not the CSRF check
    expect((await visitor.post(`/api/admin/competitions/${id}/duplicate`)).status).toBe(401);
    expect(await db('competitions').count('* as n')).toEqual(before);
  });
});
