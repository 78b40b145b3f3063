import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASH_ONLY, CLAIM_LINK_EXPIRED, CLAIM_LINK_INVALID, CLAIM_NOT_FOUND } from '../../../contract/claims';
import type { AdminWinner } from '../../../contract/draw';
import { migrationSource } from '../../../db/migrations';
import { signedInAdmin, signedInCustomer } from '../../support/admin';
import { insertCompetition, insertUser } from '../../support/fixtures';
import { TestClient } from '../../support/httpClient';
import { mailTo, outboxDrained } from '../../support/outbox';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// A postal winner has no account, and claims with the link of their winner e-mail
// (docs/draws.md#7-claiming-a-prize): the claim opens with the draw, the e-mail carries
// /claims/:id?token=…, the token opens that one claim without signing in (only its SHA-256 is
// stored), a wrong or another claim's token is 403 and changes nothing, and after the deadline the
// link is 410. The admin's winner panel shows the claim as for an account's.

const today = () => new Date().toISOString().slice(0, 10);
const PAT = {
  name: 'Pat Penhaligon',
  email: 'pat.claims@example.co.uk',
  address: '3 Chapel Street\nPenzance',
  postcode: 'TR18 4AQ',
  receivedAt: today(),
  answer: '365',
};
const JO = {
  ...PAT,
  name: 'Jo Kitto',
  email: 'jo.claims@example.co.uk',
  address: '7 Fore Street, Carbis Bay, St Ives',
};
const NEW_ADDRESS = { line1: '1 Quay Street', line2: '', town: 'Falmouth', postcode: 'tr11 3hh' };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The claim link's id and token from the winner e-mail sent to `email`. */
function linkIn(dataDir: string, email: string) {
  const mail = mailTo(dataDir, email).find((m) => m.subject.startsWith('You won'));
  const match = /\/claims\/(\d+)\?token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '');
  expect(match, mail?.text).not.toBeNull();
  return { id: Number(match![1]), token: match![2]!, text: mail!.text };
}

/** One character of the token changed: still well formed, no longer the claim's. */
const tampered = (token: string) => `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;

describe.skipIf(engineUnavailable())(`postal winners' claims on ${testEngine()}`, () => {
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

  it('opens a claim for each postal winner, e-mails its link, and the token alone opens and answers that claim', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Penzance Surf Kit',
      ticketPrice: 2,
      totalTickets: 2,
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      details: { category: 'sports' },
      prizes: [{ title: 'Surfboard', cashAlternativePence: 30_000 }, { title: 'Wetsuit' }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    // Both numbers go by post, so both prizes are won by postcards without an account.
    const entriesPath = `/api/admin/competitions/${id}/postal-entries`;
    const entered = [await admin.post(entriesPath, PAT), await admin.post(entriesPath, JO)];
    expect(entered.map((r) => r.status)).toEqual([201, 201]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    await outboxDrained(db);

    // One claim a prize, each the postcard's, each with a hash and no account.
    const rows = await db('prizeClaims').where({ competitionId: id }).orderBy('position');
    expect(rows).toHaveLength(2);
    const postcards = await db('postalEntries').where({ competitionId: id }).select('id', 'email');
    const postcardOf = new Map(postcards.map((p) => [Number(p.id), p.email as string]));
    for (const r of rows) {
      expect(r).toMatchObject({ kind: 'main', userId: null, status: 'awaiting' });
      expect(postcardOf.has(Number(r.postalEntryId))).toBe(true);
      expect(r.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(Math.abs(Number(r.deadlineAt) - (Date.now() + 14 * 86_400_000))).toBeLessThan(60_000);
    }
    const rowOf = (email: string) => rows.find((r) => postcardOf.get(Number(r.postalEntryId)) === email)!;

    // The e-mail links the claim with its token; only the token's SHA-256 is stored, and the outbox
    // row no longer holds it once sent.
    const pat = linkIn(server.database.dataDir, PAT.email);
    const jo = linkIn(server.database.dataDir, JO.email);
    expect(pat.id).toBe(Number(rowOf(PAT.email).id));
    expect(jo.id).toBe(Number(rowOf(JO.email).id));
    expect(pat.text).toContain('no account needed');
    expect(pat.text).toContain('Claim your prize by');
    expect(sha256(pat.token)).toBe(rowOf(PAT.email).tokenHash);
    expect(JSON.stringify(await db('prizeClaims').where({ competitionId: id }))).not.toContain(pat.token);
    expect(JSON.stringify(await db('mailOutbox').select('props'))).not.toContain(pat.token);

    // Opened without signing in: the prize, the deadline, the address from the postcard.
    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken();
    const opened = await visitor.get(`/api/claims/${pat.id}/link?token=${pat.token}`);
    expect(opened.status, opened.text).toBe(200);
    const patPrize = opened.body.prize as string;
    expect(patPrize).toMatch(/^(1st prize: Surfboard|2nd prize: Wetsuit)$/);
    expect(opened.body).toMatchObject({
      id: pat.id,
      status: 'awaiting',
      competitionTitle: 'Penzance Surf Kit',
      cashAlternative: patPrize.includes('Surfboard') ? 300 : null,
      address: { line1: '3 Chapel Street', line2: '', town: 'Penzance', postcode: 'TR18 4AQ' },
      phoneNumber: null,
    });
    expect(opened.body.deadline).toBe(new Date(Number(rowOf(PAT.email).deadlineAt)).toISOString());
    const joOpened = await visitor.get(`/api/claims/${jo.id}/link?token=${jo.token}`);
    expect(joOpened.body.address).toEqual({
      line1: '7 Fore Street',
      line2: 'Carbis Bay',
      town: 'St Ives',
      postcode: 'TR18 4AQ',
    });

    // A wrong or altered token, or Jo's token on Pat's claim, opens and changes nothing.
    const answer = { address: NEW_ADDRESS, choice: 'prize' };
    const before = await db('prizeClaims').where({ competitionId: id }).orderBy('id');
    for (const [claimId, token] of [
      [pat.id, tampered(pat.token)],
      [pat.id, jo.token],
      [jo.id, pat.token],
      [pat.id + jo.id + 1000, pat.token],
    ] as const) {
      for (const res of [
        await visitor.get(`/api/claims/${claimId}/link?token=${token}`),
        await visitor.post(`/api/claims/${claimId}/link`, { ...answer, token }),
      ]) {
        expect(res.status, res.text).toBe(403);
        expect(res.body.message).toBe(CLAIM_LINK_INVALID);
      }
    }
    const malformed = await visitor.get(`/api/claims/${pat.id}/link?token=not-a-token`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(CLAIM_LINK_INVALID);
    const noToken = await visitor.get(`/api/claims/${pat.id}/link`);
    expect(noToken.status).toBe(400);
    expect(noToken.body.message).toBe(CLAIM_LINK_INVALID);
    // The account routes do not open a postal claim, signed in or not.
    const someone = await signedInCustomer(server.url);
    expect((await someone.client.get(`/api/claims/${pat.id}`)).body.message).toBe(CLAIM_NOT_FOUND);
    expect((await visitor.get(`/api/claims/${pat.id}`)).status).toBe(401);
    expect(await db('prizeClaims').where({ competitionId: id }).orderBy('id')).toEqual(before);

    // The answer with the token: the corrected address and the choice, once.
    const choice = patPrize.includes('Surfboard') ? 'cash' : 'prize';
    const claimed = await visitor.post(`/api/claims/${pat.id}/link`, { ...answer, choice, token: pat.token });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body).toMatchObject({
      status: 'claimed',
      choice,
      address: { line1: '1 Quay Street', town: 'Falmouth', postcode: 'TR11 3HH' },
    });
    expect(await db('prizeClaims').where({ id: pat.id }).first()).toMatchObject({
      status: 'claimed',
      choice,
      addressPostcode: 'TR11 3HH',
      phoneNumber: null,
    });
    const again = await visitor.post(`/api/claims/${pat.id}/link`, { ...answer, token: pat.token });
    expect(again.status).toBe(409);
    expect((await visitor.get(`/api/claims/${pat.id}/link?token=${pat.token}`)).body.status).toBe('claimed');

    // The admin's winner panel: each postal winner's claim, as for an account's.
    const winners = (await admin.get('/api/admin/winners')).body as AdminWinner[];
    const w = winners.find((x) => x.competitionId === id)!;
    const claimOf = (prize: string) =>
      w.prizes!.find((p) => `${p.position === 1 ? '1st prize' : '2nd prize'}: ${p.title}` === prize)!.claim;
    expect(claimOf(patPrize)).toMatchObject({
      status: 'claimed',
      choice,
      phoneNumber: null,
      address: { line1: '1 Quay Street', town: 'Falmouth', postcode: 'TR11 3HH' },
    });
    expect(claimOf(joOpened.body.prize)).toMatchObject({
      status: 'awaiting',
      choice: null,
      address: { line1: '7 Fore Street', town: 'St Ives' },
    });

    // After the deadline the link is refused (410), to read or to answer, and nothing changes.
    await db('prizeClaims')
      .where({ id: jo.id })
      .update({ deadlineAt: Date.now() - 1000 });
    for (const res of [
      await visitor.get(`/api/claims/${jo.id}/link?token=${jo.token}`),
      await visitor.post(`/api/claims/${jo.id}/link`, { ...answer, token: jo.token }),
    ]) {
      expect(res.status, res.text).toBe(410);
      expect(res.body).toMatchObject({ code: 'claim_link_expired', message: CLAIM_LINK_EXPIRED });
    }
    expect(await db('prizeClaims').where({ id: jo.id }).first()).toMatchObject({
      status: 'awaiting',
      choice: null,
      claimedAt: null,
    });
    const late = (await admin.get('/api/admin/winners')).body as AdminWinner[];
    const lateW = late.find((x) => x.competitionId === id)!;
    expect(lateW.prizes!.map((p) => p.claim?.status).sort()).toEqual(['claimed', 'expired']);
  });

  it('a postcard without an account that wins instantly claims with a link; credit is paid as cash', async () => {
    const instantCompetition = async (title: string, win: Record<string, unknown>) => {
      const created = await admin.post('/api/admin/competitions', {
        title,
        ticketPrice: 1,
        totalTickets: 4,
        endDate: new Date(Date.now() + 86_400_000).toISOString(),
        details: { category: 'cash' },
        // Every number wins, so the postcard's number (picked at random) does.
        instantWins: [{ ...win, numbers: [1, 2, 3, 4] }],
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as number;
    };
    const credit = await instantCompetition('Postal credit', {
      title: '£5 site credit',
      kind: 'credit',
      amountPence: 500,
    });
    const prize = await instantCompetition('Postal headphones', {
      title: 'Headphones',
      kind: 'prize',
      cashValuePence: 15_000,
    });
    const sam = { ...PAT, name: 'Sam Tregear', email: 'sam.instant@example.co.uk' };
    const kit = { ...PAT, name: 'Kit Rowe', email: 'kit.instant@example.co.uk' };
    for (const [id, who] of [
      [credit, sam],
      [prize, kit],
    ] as const) {
      const entered = await admin.post(`/api/admin/competitions/${id}/postal-entries`, who);
      expect(entered.status, entered.text).toBe(201);
    }
    await outboxDrained(db);

    // Each win opened a postcard's claim with a link; the credit is owed as its value in cash, and
    // no account was credited.
    const claims = await db('prizeClaims').whereIn('competitionId', [credit, prize]).orderBy('competitionId');
    expect(claims).toHaveLength(2);
    for (const c of claims) {
      expect(c).toMatchObject({ kind: 'instant', userId: null, status: 'awaiting' });
      expect(c.postalEntryId).not.toBeNull();
      expect(c.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(Number(claims[0].cashAlternativePence)).toBe(500);
    expect(claims[1].cashAlternativePence).toBeNull();
    const samLink = linkIn(server.database.dataDir, sam.email);
    const kitLink = linkIn(server.database.dataDir, kit.email);
    expect(samLink.id).toBe(Number(claims[0].id));
    expect(kitLink.id).toBe(Number(claims[1].id));
    expect(samLink.text).toContain('we pay it to you as £5.00 in cash');
    expect(samLink.text).not.toContain('already in your account');
    expect(kitLink.text).toContain('no account needed');
    // Their £0 order has no page they could open: the e-mail does not offer one.
    expect(kitLink.text).not.toContain('View your order');
    expect(JSON.stringify(await db('mailOutbox').select('props'))).not.toContain(samLink.token);

    // The credit's claim: cash is the only choice; the prize is refused and changes nothing.
    const visitor = new TestClient(server.url);
    await visitor.fetchCsrfToken();
    const opened = await visitor.get(`/api/claims/${samLink.id}/link?token=${samLink.token}`);
    expect(opened.body).toMatchObject({
      prize: 'Instant win: £5 site credit',
      cashAlternative: 5,
      cashOnly: true,
    });
    const answer = { address: NEW_ADDRESS, token: samLink.token };
    const refused = await visitor.post(`/api/claims/${samLink.id}/link`, { ...answer, choice: 'prize' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.message).toBe(CASH_ONLY);
    expect(await db('prizeClaims').where({ id: samLink.id }).first()).toMatchObject({ status: 'awaiting' });
    const cash = await visitor.post(`/api/claims/${samLink.id}/link`, { ...answer, choice: 'cash' });
    expect(cash.status, cash.text).toBe(200);
    expect(cash.body).toMatchObject({ status: 'claimed', choice: 'cash' });

    // The prize's claim: the prize, delivered to the corrected address; the admin sees it.
    const kitOpened = await visitor.get(`/api/claims/${kitLink.id}/link?token=${kitLink.token}`);
    expect(kitOpened.body).toMatchObject({ prize: 'Instant win: Headphones', cashOnly: false });
    const claimed = await visitor.post(`/api/claims/${kitLink.id}/link`, {
      address: NEW_ADDRESS,
      token: kitLink.token,
      choice: 'prize',
    });
    expect(claimed.status, claimed.text).toBe(200);
    const detail = (await admin.get(`/api/admin/competitions/${prize}`)).body as {
      instantWins: Array<{ won: boolean; claim?: { status: string; address: { town: string } } }>;
    };
    expect(detail.instantWins.find((w) => w.won)?.claim).toMatchObject({
      status: 'claimed',
      address: { town: 'Falmouth' },
    });
  });

  it('the table holds an account claim or a postcard claim with its hash, never both or neither', async () => {
    const base = {
      kind: 'main',
      competitionId: 1,
      position: 1,
      prizeLabel: 'x',
      status: 'awaiting',
      deadlineAt: Date.now(),
      createdAt: Date.now(),
    };
    await expect(db('prizeClaims').insert({ ...base, prizeRef: 'check:neither' })).rejects.toThrow();
    await expect(
      db('prizeClaims').insert({
        ...base,
        prizeRef: 'check:account-with-hash',
        userId: 1,
        tokenHash: 'a'.repeat(64),
      }),
    ).rejects.toThrow();
    // The first test's postcards.
    const postcard = await db('postalEntries').first('id');
    expect(postcard).toBeTruthy();
    const accountWithHash = {
      ...base,
      prizeRef: 'check:both',
      userId: 1,
      postalEntryId: postcard.id,
      tokenHash: 'a'.repeat(64),
    };
    await expect(db('prizeClaims').insert(accountWithHash)).rejects.toThrow();
    await expect(
      db('prizeClaims').insert({
        ...base,
        prizeRef: 'check:postcard-no-hash',
        postalEntryId: postcard.id,
      }),
    ).rejects.toThrow();
  });
});

// 040 rebuilds prize_claims (SQLite cannot add a CHECK): every account's claim stays, both ways.
describe.skipIf(engineUnavailable())(`migration 040_postal_claims on ${testEngine()}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("keeps the accounts' claims across the rebuild and back", async () => {
    const { db } = database;
    const userId = await insertUser(db);
    const competitionId = await insertCompetition(db, { totalTickets: 5 });
    await db.migrate.down({ migrationSource, name: '040_postal_claims' });
    expect(await db.schema.hasColumn('prize_claims', 'postal_entry_id')).toBe(false);
    const claim = {
      prizeRef: `main:${competitionId}:1`,
      kind: 'main',
      competitionId,
      position: 1,
      userId,
      prizeLabel: 'Kayak',
      status: 'claimed',
      choice: 'prize',
      addressLine1: '1 Quay Street',
      addressPostcode: 'TR11 3HH',
      deadlineAt: 2,
      createdAt: 1,
    };
    const [id] = await db('prizeClaims').insert(claim);
    await db.migrate.latest({ migrationSource });
    expect(await db('prizeClaims').where({ id }).first()).toMatchObject({
      ...claim,
      postalEntryId: null,
      tokenHash: null,
    });
    // Still one claim per prize.
    await expect(db('prizeClaims').insert({ ...claim, status: 'awaiting' })).rejects.toThrow();
    await db.migrate.down({ migrationSource, name: '040_postal_claims' });
    expect(await db('prizeClaims').where({ id }).first()).toMatchObject(claim);
    await db.migrate.latest({ migrationSource });
  });
});
