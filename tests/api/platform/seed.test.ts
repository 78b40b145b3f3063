import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_CATEGORIES } from '../../../contract/categories';
import { computeDrawPrizes } from '../../../contract/draw';
import { DEMO_CUSTOMER, seedDemoData, WELCOME_PROMO_NAME } from '../../../server/seeds/demo';
import { POSTAL_WINNER_TITLE } from '../../../server/seeds/demoPostalWinner';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

const count = async (q: Knex.QueryBuilder) =>
  Number(((await q.count({ n: '*' }).first()) as { n: number }).n);

describe.skipIf(engineUnavailable())(`demo seed on ${testEngine()}`, () => {
  let database: TestDatabase;
  let db: Knex;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    await seedDemoData(db, { adminUsername: 'admin', adminPassword: 'admin123' });
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('creates at least 12 active competitions covering every public category and both draw types', async () => {
    const active = await db('competitions')
      .where({ status: 'active' })
      .select('details', 'autoWin', 'totalTickets');
    expect(active.length).toBeGreaterThanOrEqual(12);
    const categories = new Set(active.map((c) => String(JSON.parse(c.details).category).toLowerCase()));
    for (const category of PUBLIC_CATEGORIES) expect(categories).toContain(category);
    expect(new Set(active.map((c) => Boolean(c.autoWin)))).toEqual(new Set([true, false]));
    const totals = active.map((c) => c.totalTickets);
    expect(Math.min(...totals)).toBe(20);
    expect(Math.max(...totals)).toBe(100_000);
  });

  it('creates one archived and two ended competitions, one of them drawn', async () => {
    expect(await count(db('competitions').where({ status: 'archived' }))).toBe(1);
    expect(await count(db('competitions').where({ status: 'ended' }))).toBe(2);
    expect(await count(db('competitions').whereNotNull('drawnAt'))).toBe(1);
  });

  it('has a drawn competition whose 3rd prize went to a postcard, verifiable and e-mailed', async () => {
    const c = await db('competitions').where({ title: POSTAL_WINNER_TITLE }).first();
    const draw = await db('draws').where({ competitionId: c.id }).first();
    const numbers = JSON.parse(draw.entries) as number[];
    const rule = await computeDrawPrizes(c.drawSeed, numbers, 3);
    expect(Number(draw.winningNumber)).toBe(rule.prizes[0]!.winningNumber);
    const third = await db('drawPrizes').where({ competitionId: c.id, position: 3 }).first();
    expect(Number(third.winningNumber)).toBe(rule.prizes[2]!.winningNumber);
    expect(third.winnerUserId).toBeNull();
    const postcard = await db('postalEntries').where({ orderId: third.winnerOrderId }).first();
    expect(postcard).toMatchObject({ name: 'Pat Penhaligon', answer: '365' });
    const owed = await db('mailOutbox')
      .where({ subjectKey: `competition:${c.id}:prize:3` })
      .first();
    expect(owed).toMatchObject({ recipient: postcard.email, status: 'pending' });
    // Every prize's claim, the postcard's opened by the link in its e-mail (only the hash stored).
    const claims = await db('prizeClaims').where({ competitionId: c.id }).orderBy('position');
    expect(claims.map((x) => x.position)).toEqual([1, 2, 3]);
    expect(claims[2]).toMatchObject({ userId: null, postalEntryId: postcard.id, status: 'awaiting' });
    expect(claims[2].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(owed.props).toMatch(new RegExp(`/claims/${claims[2].id}\\?token=[A-Za-z0-9_-]{43}`));
  });

  it('spreads end dates over the coming weeks', async () => {
    const rows = await db('competitions').where({ status: 'active' }).select('endDate');
    const ends = rows.map((r: { endDate: number }) => Number(r.endDate));
    const days = ends.map((e) => (e - Date.now()) / 86_400_000);
    expect(Math.min(...days)).toBeGreaterThan(0);
    expect(Math.max(...days)).toBeGreaterThan(21);
  });

  it('keeps ticketsSold equal to the sold ticket rows for every competition', async () => {
    const rows: Array<{ id: number; ticketsSold: number; sold: number }> = await db('competitions as c')
      .leftJoin('tickets as t', function () {
        this.on('t.competitionId', '=', 'c.id').andOnVal('t.status', '=', 'sold');
      })
      .groupBy('c.id', 'c.ticketsSold')
      .select('c.id', 'c.ticketsSold')
      .count({ sold: 't.id' });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(Number(r.sold)).toBe(Number(r.ticketsSold));
    expect(await count(db('tickets').where({ status: 'sold' }))).toBeGreaterThan(1000);
  });

  it('gives every sold ticket an order, an owner and a matching entry', async () => {
    // A postcard without an account is the one ticket with no owner: its postal entry names it.
    const orphans = await count(
      db('tickets')
        .whereNull('orderId')
        .orWhere((w) => w.whereNull('userId').whereNotIn('orderId', db('postalEntries').select('orderId'))),
    );
    expect(orphans).toBe(0);
    const entries = await db('userEntries').select('ticketNumbers');
    const entryTickets = entries.reduce((sum, e) => sum + JSON.parse(e.ticketNumbers).length, 0);
    expect(entryTickets).toBe(await count(db('tickets').where({ status: 'sold' }).whereNotNull('userId')));
  });

  it('has one competition with committed instant wins, those among its sold numbers won', async () => {
    const c = await db('competitions')
      .whereNotNull('instantWinCommitment')
      .select('id', 'instantWinCommitment');
    expect(c).toHaveLength(1);
    const wins = await db('instantWins').where({ competitionId: c[0].id });
    expect(wins).toHaveLength(30);
    const sold = await db('tickets').where({ competitionId: c[0].id, status: 'sold' }).pluck('number');
    for (const w of wins) expect(w.wonAt !== null, `number ${w.number}`).toBe(sold.includes(w.number));
  });

  it('has a live competition with a minimum to sell, short of it, with an extension to come', async () => {
    const c = await db('competitions')
      .whereNotNull('minTicketsSold')
      .select('status', 'minTicketsSold', 'ticketsSold', 'extendByDays', 'maxExtensions', 'extensionsUsed');
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ status: 'active', extendByDays: 7, maxExtensions: 1, extensionsUsed: 0 });
    expect(c[0].ticketsSold).toBeLessThan(c[0].minTicketsSold);
  });

  it('has a winner who claimed their instant prize, with the address kept in their profile', async () => {
    const claimed = await db('prizeClaims').where({ status: 'claimed' });
    expect(claimed).toHaveLength(1);
    expect(claimed[0]).toMatchObject({ kind: 'instant', choice: 'prize', addressPostcode: 'TR1 2LS' });
    expect(claimed[0].phoneNumber).toBeTruthy();
    const win = await db('instantWins').where({ id: claimed[0].instantWinId }).first();
    expect(win).toMatchObject({ kind: 'prize', userId: claimed[0].userId });
    const winner = await db('users').where({ id: claimed[0].userId }).first('addressPostcode');
    expect(winner.addressPostcode).toBe('TR1 2LS');
  });

  it('creates the admin, the demo customer and the £5.00 welcome promo', async () => {
    const admin = await db('users').where({ username: 'admin' }).first();
    expect(admin.role).toBe('admin');
    expect(admin.passwordHash).toMatch(/^scrypt\$/);
    const demo = await db('users').where({ username: DEMO_CUSTOMER.username }).first();
    expect(demo.role).toBe('user');
    const promo = await db('promoConfigs').where({ name: WELCOME_PROMO_NAME }).first();
    expect(promo).toMatchObject({ creditAmountPence: 500, targetUserType: 'new_user', maxUsesPerUser: 1 });
    expect(Boolean(promo.isActive) && Boolean(promo.autoApply)).toBe(true);
  });

  it("names the debit card of every seeded order, the demo customer's too (issue 39 §5)", async () => {
    const cards = await db('orders')
      .whereNot({ paymentProvider: 'postal' })
      .distinct('cardBrand', 'cardFunding', 'cardLast4')
      .orderBy('cardLast4');
    expect(cards).toEqual([
      { cardBrand: 'visa', cardFunding: 'debit', cardLast4: '5556' },
      { cardBrand: 'mastercard', cardFunding: 'debit', cardLast4: '8210' },
    ]);
    const demo = await db('users').where({ username: DEMO_CUSTOMER.username }).first('id');
    const debit = await db('orders').where({ userId: demo.id, cardLast4: '5556' }).first('id');
    expect(debit).toBeDefined();
  });

  it('is idempotent: a second run adds nothing', async () => {
    const before = await Promise.all(
      ['users', 'competitions', 'tickets', 'orders', 'promoConfigs', 'prizeClaims'].map((t) => count(db(t))),
    );
    const summary = await seedDemoData(db, { adminUsername: 'admin', adminPassword: 'admin123' });
    expect(summary).toEqual({ usersCreated: 0, competitionsCreated: 0, ticketsSold: 0 });
    const after = await Promise.all(
      ['users', 'competitions', 'tickets', 'orders', 'promoConfigs', 'prizeClaims'].map((t) => count(db(t))),
    );
    expect(after).toEqual(before);
  });
});
