import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../api/platform/events';
import { presentCart } from '../../../api/tickets/cartPresenter';
import { cartKeyOf, readCart } from '../../../api/tickets/cartRevision';
import { LuckyDipHotPath } from '../../../api/tickets/hotPath/luckyDipHold';
import { releaseLineHot } from '../../../api/tickets/hotPath/releaseLine';
import {
  addToCart,
  type CartOwner,
  type ReservationDeps,
  removeItem,
} from '../../../api/tickets/reservations';
import type { AddToCartInput } from '../../../contract/cart';
import { connectionPerRequest } from '../../../fastpaths/pinnedConnection';
import { insertCompetition, insertUser } from '../../support/fixtures';
import {
  createTestDatabase,
  engineUnavailable,
  type TestDatabase,
  testEngine,
} from '../../support/testDatabase';

// The Lucky Dip hot path (api/tickets/hotPath/, migration 051) against the general path
// (reservations.ts), on MariaDB: the same rows, history, versions, revisions, events and answers;
// every case it does not take left untouched for the general path; and many at once keep the
// invariants, with the events published in version order.

type Seen = Array<{ type: string; payload: Record<string, unknown> }>;

const TTL = 600;

describe.skipIf(engineUnavailable() || testEngine() !== 'mysql')('the Lucky Dip hot path on MariaDB', () => {
  let database: TestDatabase;
  let db: Knex;
  let events: EventBus;
  let seen: Seen;
  let hot: LuckyDipHotPath;
  let general: ReservationDeps;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    events = new EventBus();
    seen = [];
    for (const type of ['tickets.reserved', 'tickets.released', 'cart.changed'] as const) {
      events.subscribe(type, (payload) => seen.push({ type, payload: payload as Record<string, unknown> }));
    }
    hot = new LuckyDipHotPath({ events, ttlSeconds: TTL });
    general = { db, events, ttlSeconds: TTL };
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** Runs `work` on one pinned pool connection, as the hold routes do with FAST_PATHS on. */
  const pinned = <T>(work: (on: Knex) => Promise<T>) => connectionPerRequest(db, true)(work);
  let guests = 0;
  const guest = (): CartOwner => ({ guestId: `hot-guest-${++guests}`, userId: null });
  const account = async (): Promise<CartOwner> => ({
    guestId: `hot-guest-${++guests}`,
    userId: await insertUser(db),
  });
  const competition = async (totalTickets = 1000) => {
    const id = await insertCompetition(db, { totalTickets });
    hot.learn({ id, totalTickets });
    return id;
  };
  const lucky = (competitionId: number, quantity: number): AddToCartInput => ({ competitionId, quantity });

  /** What a hold or release of `owner` left in the database, with ids and numbers made comparable. */
  async function stored(competitionId: number, owner: CartOwner, historyOf?: number[]) {
    const items = (await db('cartItems')
      .where({ competitionId, guestId: owner.guestId })
      .orderBy('id')) as Array<Record<string, unknown>>;
    const tickets = (await db('tickets')
      .where({ competitionId, guestId: owner.guestId })
      .orderBy('id')) as Array<Record<string, unknown>>;
    const numbers = tickets.map((t) => t.number as number);
    const history = (await db('ticketEvents')
      .where({ competitionId })
      .whereIn('number', historyOf ?? numbers)
      .orderBy('id')) as Array<Record<string, unknown>>;
    const revision = await db('cartRevisions')
      .where({ ownerKey: cartKeyOf(owner) })
      .first('revision');
    // What differs between two owners' holds: ids, owners, numbers (checked on their own).
    const withoutIds = ({
      id: _id,
      guestId: _g,
      userId: _u,
      cartItemId: _c,
      number: _n,
      ...rest
    }: Record<string, unknown>): Record<string, unknown> => rest;
    return {
      items: items.map(withoutIds),
      tickets: tickets.map(withoutIds),
      history: history.map(
        ({ createdAt: _t, ...h }): Record<string, unknown> => ({
          ...withoutIds(h),
          byOwner: h.userId === owner.userId,
        }),
      ),
      revision: Number(revision?.revision),
      numbers,
      ticketsPerItem: tickets.every((t) => t.cartItemId === items[0]?.id),
    };
  }

  /** The published events of a change, their numbers and versions checked against `numbers`. */
  const eventsSince = (from: number) =>
    seen.slice(from).map(({ type, payload }) => ({
      type,
      keys: Object.keys(payload).sort(),
      numbers: (payload.numbers as number[] | undefined)?.length,
    }));

  /** The cart answer without the ids, guest ids and numbers that differ between two owners. */
  const comparable = (cart: ReturnType<typeof presentCart>) =>
    cart.map(({ id: _i, sessionId: _s, heldNumbers, ...rest }) => ({ ...rest, held: heldNumbers.length }));

  for (const who of ['a guest', 'an account'] as const) {
    it(`holds and releases for ${who} exactly as the general path does`, async () => {
      const id = await competition();
      const [a, b] = who === 'a guest' ? [guest(), guest()] : [await account(), await account()];
      const now = Date.now();
      const versionBefore = seen.length;
      const hotHold = await pinned((on) => hot.hold(on, a, lucky(id, 3), true, now));
      expect(hotHold).toBeDefined();
      const hotEvents = eventsSince(versionBefore);
      const generalFrom = seen.length;
      const generalHold = await addToCart(general, b, lucky(id, 3), true, now);
      const generalEvents = eventsSince(generalFrom);
      expect(hotEvents).toEqual(generalEvents);
      const [hotRows, generalRows] = [await stored(id, a), await stored(id, b)];
      expect(hotRows).toMatchObject({ ...generalRows, numbers: expect.any(Array) });
      expect(hotRows.numbers).toEqual(hotHold!.result.heldNumbers);
      expect(hotRows.numbers).toHaveLength(3);
      expect(new Set([...hotRows.numbers, ...generalRows.numbers]).size).toBe(6);
      // The answer: the line, its cart and revision, the versions (one each, in order).
      expect(hotHold!.result.changes[0]!.version + 1).toBe(generalHold.changes[0]!.version);
      expect(hotHold!.cart.revision).toBe(generalHold.cartRevision);
      expect(comparable(presentCart(hotHold!.cart.entries))).toEqual(
        comparable(presentCart((await readCart(db, b)).entries)),
      );
      expect(hotHold!.result.item.expiresAt).toBe(generalHold.item.expiresAt);

      // The release of each line.
      const releaseFrom = seen.length;
      const hotRelease = await pinned((on) => releaseLineHot(events, on, a, hotHold!.result.item.id));
      expect(hotRelease).toBeDefined();
      const hotReleaseEvents = eventsSince(releaseFrom);
      const generalReleaseFrom = seen.length;
      const generalRelease = await removeItem(general, b, generalHold.item.id);
      expect(hotReleaseEvents).toEqual(eventsSince(generalReleaseFrom));
      const [hotAfter, generalAfter] = [
        await stored(id, a, hotRows.numbers),
        await stored(id, b, generalRows.numbers),
      ];
      expect(hotAfter).toEqual({ ...generalAfter, numbers: [] });
      expect(hotAfter.items).toEqual([]);
      expect(hotAfter.history.map((h) => [h.event, h.note, h.byOwner])).toEqual([
        ...hotRows.numbers.map(() => ['held', null, true]),
        ...hotRows.numbers.map(() => ['released', 'removed from cart', a.userId === null]),
      ]);
      expect(hotRelease!.changes[0]!.numbers).toEqual(hotRows.numbers);
      expect(hotRelease!.changes[0]!.version + 1).toBe(generalRelease.changes[0]!.version);
      expect(hotRelease!.cart).toEqual({ entries: [], revision: generalRelease.cartRevision });
    });
  }

  it('leaves every other case to the general path, having written nothing', async () => {
    const counts = async () =>
      Promise.all(
        ['cartItems', 'tickets', 'ticketEvents', 'competitionVersions', 'cartRevisions'].map(async (t) =>
          Number((await db(t).count({ n: '*' }).first())?.n),
        ),
      );
    const id = await competition();
    const capped = await competition();
    await db('competitions').where({ id: capped }).update({ maxTicketsPerUser: 2 });
    const closed = await competition();
    await db('competitions').where({ id: closed }).update({ status: 'ended' });
    const queued = await competition();
    await db('competitions').where({ id: queued }).update({ launchQueue: true, queueShuffledAt: Date.now() });
    const resized = await competition();
    hot.learn({ id: resized, totalTickets: 2000 });
    const onBreak = await account();
    await db('users')
      .where({ id: onBreak.userId! })
      .update({ selfExcludedUntil: Date.now() + 86_400_000 });
    const merging = guest();
    expect(await pinned((on) => hot.hold(on, merging, lucky(id, 1), true))).toBeDefined();
    const unseen = await insertCompetition(db, { totalTickets: 1000 });

    const before = await counts();
    const eventsBefore = seen.length;
    const cases: Array<[string, CartOwner, AddToCartInput, boolean]> = [
      ['the skill question not answered', guest(), lucky(id, 1), false],
      ['chosen numbers', guest(), { competitionId: id, quantity: 1, selectedNumbers: [5] }, true],
      ['a competition not seen yet', guest(), lucky(unseen, 1), true],
      ['over the cap', guest(), lucky(capped, 3), true],
      ['closed', guest(), lucky(closed, 1), true],
      ['a queued launch not drained', guest(), lucky(queued, 1), true],
      ['a changed size', guest(), lucky(resized, 1), true],
      ['on a break', onBreak, lucky(id, 1), true],
      ['a second Lucky Dip (merged)', merging, lucky(id, 2), true],
      ['a missing competition', guest(), lucky(999_999, 1), true],
    ];
    hot.learn({ id: 999_999, totalTickets: 1000 });
    for (const [why, owner, input, skill] of cases) {
      expect(await pinned((on) => hot.hold(on, owner, input, skill)), why).toBeUndefined();
    }
    expect(await pinned((on) => releaseLineHot(events, on, guest(), 1))).toBeUndefined();
    expect(await counts()).toEqual(before);
    expect(seen.length).toBe(eventsBefore);
    // The general path answers them: the cap, for one.
    await expect(addToCart(general, guest(), lucky(capped, 3), true)).rejects.toMatchObject({
      code: 'over_cap',
    });
    // A changed size is learnt from the answer: the next Lucky Dip there is hot again.
    expect(await pinned((on) => hot.hold(on, guest(), lucky(resized, 1), true))).toBeDefined();
  });

  it('many people at once: never held twice, counts add up, events published in version order', async () => {
    const id = await competition(400);
    const owners = Array.from({ length: 40 }, (_, i) => (i % 4 ? guest() : null));
    const people = await Promise.all(owners.map(async (o) => o ?? (await account())));
    const from = seen.length;
    let fellBack = 0;
    // As the route: the hot path, or the general path when it falls back; a release between holds.
    const holdOnce = (owner: CartOwner, quantity: number) =>
      pinned(async (on) => {
        const done = await hot.hold(on, owner, lucky(id, quantity), true);
        if (done) return done.result;
        fellBack++;
        return addToCart({ ...general, db: on }, owner, lucky(id, quantity), true);
      });
    const results = await Promise.all(
      people.map(async (owner, i) => {
        const held: number[] = [];
        for (let round = 0; round < 3; round++) {
          const result = await holdOnce(owner, 1 + ((i + round) % 3));
          if (round < 2) {
            const released = await pinned(async (on) => releaseLineHot(events, on, owner, result.item.id));
            if (!released) await removeItem(general, owner, result.item.id);
          } else held.push(...result.heldNumbers);
        }
        return held;
      }),
    );
    const held = results.flat();
    expect(new Set(held).size).toBe(held.length);
    const duplicates = await db('tickets')
      .where({ competitionId: id })
      .select('number')
      .count({ n: '*' })
      .groupBy('number')
      .having(db.raw('count(*) > 1'));
    expect(duplicates).toEqual([]);
    const rows = (await db('tickets')
      .where({ competitionId: id })
      .orderBy('number')
      .pluck('number')) as number[];
    expect(rows).toEqual([...held].sort((a, b) => a - b));
    const history = (await db('ticketEvents')
      .where({ competitionId: id })
      .select('event')
      .count({ n: '*' })
      .groupBy('event')) as Array<{ event: string; n: number | string }>;
    const byEvent = Object.fromEntries(history.map((h) => [h.event, Number(h.n)]));
    expect((byEvent.held ?? 0) - (byEvent.released ?? 0)).toBe(held.length);
    // One version per hold and per release, and published in that order, each exactly once.
    const changes = seen
      .slice(from)
      .filter((e) => e.type !== 'cart.changed' && e.payload.competitionId === id);
    const versions = changes.map((e) => e.payload.version as number);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    const { version } = await db('competitionVersions').where({ competitionId: id }).first('version');
    expect(Number(version)).toBe(people.length * 3 + people.length * 2);
    // Most went the hot way (a number taken meanwhile falls back).
    expect(fellBack).toBeLessThan(people.length);
  });
});
