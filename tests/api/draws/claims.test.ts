import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { CLAIM_CLOSED, CLAIM_NOT_FOUND, NO_CASH_ALTERNATIVE } from '../../../contract/claims';
import type { AdminWinner } from '../../../contract/draw';
import type { AdminInstantWin } from '../../../contract/instantWins';
import { buyWithCard, put, signedInAdmin, signedInCustomer } from '../../support/admin';
import { card, customer, hold, startCheckout } from '../../support/checkout';
import { TestClient } from '../../support/httpClient';
import { mailTo, outboxDrained } from '../../support/outbox';
import { engineUnavailable, testEngine } from '../../support/testDatabase';
import { type TestServer, useTestServer } from '../../support/testServer';

// Winners can be reached and can claim (docs/draws.md#7-claiming-a-prize): the delivery address in
// My Profile, a claim per prize won (main or instant, not site credit), own claims only, the
// prize or its cash alternative once before the 14-day deadline, and the admin's winner panel.

const ADDRESS = { line1: '1 High Street', line2: 'Flat 2', town: 'Bristol', postcode: 'bs1 4dj' };
const DEBIT = '4000 0566 5566 5556';
const future = () => new Date(Date.now() + 86_400_000).toISOString();

type Claim = {
  id: number;
  kind: string;
  prize: string;
  status: string;
  choice: string | null;
  cashAlternative: number | null;
  address: Record<string, string> | null;
  phoneNumber: string | null;
  claimedAt: string | null;
  deadline: string;
};

describe.skipIf(engineUnavailable())(`prize claims on ${testEngine()}`, () => {
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

  it('keeps a delivery address in My Profile, with UK postcode validation', async () => {
    const { client } = await signedInCustomer(server.url);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...ADDRESS, postcode: '12345' }, 'Please enter a valid UK postcode'],
      [{ ...ADDRESS, postcode: 'SW1A 1AAA' }, 'Please enter a valid UK postcode'],
      [{ ...ADDRESS, line1: '  ' }, 'Please enter the first line of your address'],
      [{ ...ADDRESS, town: undefined }, 'Please enter your town or city'],
    ];
    for (const [body, message] of cases) {
      const res = await put(client, '/api/user/delivery-address', body);
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(message);
    }
    const saved = await put(client, '/api/user/delivery-address', ADDRESS);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.deliveryAddress).toEqual({ ...ADDRESS, postcode: 'BS1 4DJ' });
    expect((await client.get('/api/session')).body.user.deliveryAddress.postcode).toBe('BS1 4DJ');
    expect((await new TestClient(server.url).get('/api/claims')).status).toBe(401);
  });

  it("a later prize offers its own cash alternative (issue 39 §1's prize list)", async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Hamper pair',
      ticketPrice: 1,
      totalTickets: 10,
      endDate: future(),
      details: { category: 'home' },
      prizes: [{ title: 'Big hamper' }, { title: 'Small hamper', cashAlternativePence: 2_500 }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const a = await signedInCustomer(server.url);
    const b = await signedInCustomer(server.url);
    await buyWithCard(a.client, id, [1]);
    await buyWithCard(b.client, id, [2]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    const claims = [
      ...((await a.client.get('/api/claims')).body as Claim[]),
      ...((await b.client.get('/api/claims')).body as Claim[]),
    ].filter((x) => x.prize.includes('hamper'));
    // Both tickets win: the 1st prize has no cash alternative, the 2nd its own.
    expect(claims.map((x) => [x.prize, x.cashAlternative]).sort()).toEqual([
      ['1st prize: Big hamper', null],
      ['2nd prize: Small hamper', 25],
    ]);
  });

  it('main prizes: claims with the draw, e-mails name the prize and link it, own only, prize or cash once', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Bike and more',
      ticketPrice: 1,
      totalTickets: 10,
      endDate: future(),
      details: { category: 'sports' },
      cashAlternative: 800,
      prizes: [{ title: 'Mountain bike' }, { title: 'Helmet' }],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const a = await signedInCustomer(server.url);
    const b = await signedInCustomer(server.url);
    await put(a.client, '/api/user/delivery-address', ADDRESS);
    await buyWithCard(a.client, id, [1]);
    await buyWithCard(b.client, id, [2]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    const drawn = await admin.post(`/api/admin/competitions/${id}/draw`, {});
    expect(drawn.status, drawn.text).toBe(200);
    await outboxDrained(db);

    const claimsOf = async (c: TestClient) =>
      ((await c.get('/api/claims')).body as Claim[]).filter(
        (x) => x.prize.includes('Mountain bike') || x.prize.includes('Helmet'),
      );
    const [claimA] = await claimsOf(a.client);
    const [claimB] = await claimsOf(b.client);
    expect(claimA && claimB).toBeTruthy();
    const byPrize = claimA!.prize.startsWith('1st')
      ? { first: [a, claimA!], second: [b, claimB!] }
      : { first: [b, claimB!], second: [a, claimA!] };
    const [firstWinner, first] = byPrize.first as [typeof a, Claim];
    const [secondWinner, second] = byPrize.second as [typeof a, Claim];
    expect(first).toMatchObject({
      kind: 'main',
      prize: '1st prize: Mountain bike',
      status: 'awaiting',
      cashAlternative: 800,
    });
    expect(second).toMatchObject({ prize: '2nd prize: Helmet', cashAlternative: null, choice: null });
    // 14 days from the draw.
    const deadline = Date.parse(first.deadline);
    expect(Math.abs(deadline - (Date.now() + 14 * 86_400_000))).toBeLessThan(60_000);

    // The winner e-mail names the prize, the steps and the deadline, and links the claim.
    const mail = mailTo(server.database.dataDir, secondWinner.user.email).find((m) =>
      m.subject.startsWith('You won'),
    );
    expect(mail?.text).toContain('Prize: 2nd prize: Helmet');
    expect(mail?.text).toContain('Claim your prize by');
    expect(mail?.text).toContain(`/claims/${second.id}`);

    // Another customer's claim is not found, to read or to answer.
    const other = await signedInCustomer(server.url);
    for (const res of [
      await other.client.get(`/api/claims/${first.id}`),
      await other.client.post(`/api/claims/${first.id}`, { address: ADDRESS, choice: 'prize' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CLAIM_NOT_FOUND);
    }
    expect((await new TestClient(server.url).get(`/api/claims/${first.id}`)).status).toBe(401);

    // No cash alternative on the 2nd prize; a bad postcode is refused.
    const noCash = await secondWinner.client.post(`/api/claims/${second.id}`, {
      address: ADDRESS,
      choice: 'cash',
    });
    expect(noCash.status).toBe(400);
    expect(noCash.body.message).toBe(NO_CASH_ALTERNATIVE);
    const badPostcode = await secondWinner.client.post(`/api/claims/${second.id}`, {
      address: { ...ADDRESS, postcode: 'nope' },
      choice: 'prize',
    });
    expect(badPostcode.status).toBe(400);
    const prize = await secondWinner.client.post(`/api/claims/${second.id}`, {
      address: ADDRESS,
      choice: 'prize',
    });
    expect(prize.status, prize.text).toBe(200);
    expect(prize.body).toMatchObject({
      status: 'claimed',
      choice: 'prize',
      address: { postcode: 'BS1 4DJ' },
    });

    const cash = await firstWinner.client.post(`/api/claims/${first.id}`, {
      address: ADDRESS,
      choice: 'cash',
    });
    expect(cash.status, cash.text).toBe(200);
    expect(cash.body.choice).toBe('cash');
    const again = await firstWinner.client.post(`/api/claims/${first.id}`, {
      address: ADDRESS,
      choice: 'prize',
    });
    expect(again.status).toBe(409);

    // The admin winner panel: phone, address and the choice with its date, prize by prize.
    const winners = (await admin.get('/api/admin/winners')).body as AdminWinner[];
    const w = winners.find((x) => x.competitionId === id)!;
    expect(w.claim).toMatchObject({
      status: 'claimed',
      choice: 'cash',
      cashAlternative: 800,
      phoneNumber: expect.any(String),
      address: { line1: '1 High Street', line2: 'Flat 2', town: 'Bristol', postcode: 'BS1 4DJ' },
    });
    expect(Date.parse(w.claim!.claimedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect(w.prizes![1]!.claim).toMatchObject({ status: 'claimed', choice: 'prize' });
    const detail = await admin.get(`/api/admin/competitions/${id}`);
    expect(detail.body.draw.prizes[0].claim.choice).toBe('cash');

    // Once delivered, the winner may delete the account: the claim keeps the choice, not the address.
    await db('draws').where({ competitionId: id }).update({ prizeDeliveredAt: Date.now() });
    const deleted = await firstWinner.client.request('DELETE', '/api/account', {
      password: firstWinner.password,
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await db('prizeClaims').where({ id: first.id }).first()).toMatchObject({
      choice: 'cash',
      status: 'claimed',
      addressLine1: null,
      addressPostcode: null,
      phoneNumber: null,
    });
  });

  it('after the deadline the claim window is closed: no choice is taken', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Late claim',
      ticketPrice: 1,
      totalTickets: 5,
      endDate: future(),
      details: { category: 'home' },
    });
    const id = created.body.id as number;
    const { client } = await signedInCustomer(server.url);
    await buyWithCard(client, id, [3]);
    await db('competitions')
      .where({ id })
      .update({ endDate: Date.now() - 1000, status: 'ended' });
    expect((await admin.post(`/api/admin/competitions/${id}/draw`, {})).status).toBe(200);
    const [claim] = (await client.get('/api/claims')).body as Claim[];
    // A single prize is named by its title.
    expect(claim!.prize).toBe('Late claim');
    await db('prizeClaims')
      .where({ id: claim!.id })
      .update({ deadlineAt: Date.now() - 1000 });
    expect((await client.get(`/api/claims/${claim!.id}`)).body.status).toBe('expired');
    const late = await client.post(`/api/claims/${claim!.id}`, { address: ADDRESS, choice: 'prize' });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(CLAIM_CLOSED);
    const winners = (await admin.get('/api/admin/winners')).body as AdminWinner[];
    expect(winners.find((x) => x.competitionId === id)!.claim!.status).toBe('expired');
  });

  it('an instant prize opens a claim (credit does not); the e-mail links it; a cancelled order closes it', async () => {
    const created = await admin.post('/api/admin/competitions', {
      title: 'Instant claims',
      ticketPrice: 1,
      totalTickets: 50,
      endDate: future(),
      details: { category: 'Cash' },
      instantWins: [
        { title: '£5 site credit', kind: 'credit', amountPence: 500, numbers: [7] },
        { title: 'Headphones', kind: 'prize', cashValuePence: 15_000, numbers: [9] },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const { client, user } = await customer(server.url, id);
    await hold(client, id, [7, 9]);
    const order = await startCheckout(client);
    const paid = await client.post('/api/payments/sandbox/confirm', {
      clientSecret: order.clientSecret,
      ...card({ cardNumber: DEBIT }),
    });
    expect(paid.status, paid.text).toBe(200);
    await outboxDrained(db);
    const claims = (await client.get('/api/claims')).body as Claim[];
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatchObject({
      kind: 'instant',
      prize: 'Instant win: Headphones',
      cashAlternative: null,
    });
    const mail = mailTo(server.database.dataDir, user.email).find((m) => m.subject.includes('Headphones'));
    expect(mail?.text).toContain(`/claims/${claims[0]!.id}`);
    expect(mail?.text).toContain('Claim your prize by');

    // The admin's instant-win list carries the claim of the won prize (none for credit).
    const detail = (await admin.get(`/api/admin/competitions/${id}`)).body as {
      instantWins: AdminInstantWin[];
    };
    const byNumber = new Map(detail.instantWins.map((w) => [w.number, w]));
    expect(byNumber.get(9)?.claim).toMatchObject({
      status: 'awaiting',
      choice: null,
      phoneNumber: expect.any(String),
    });
    expect(byNumber.get(7)?.claim).toBeUndefined();

    const cancelled = await admin.post(`/api/admin/orders/${order.orderId}/cancel`, {
      reason: 'The prize could not be supplied',
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await client.get('/api/claims')).body).toEqual([]);
  });
});
