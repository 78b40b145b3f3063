import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { AddToCartInput } from '../../contract/cart';
import { ERROR_CODES } from '../../contract/errors';
import { engineOfKnex, isUniqueViolation } from '../../db/dialect';
import { CartItem, Competition } from '../../db/models';
import { SKILL_REQUIRED_MESSAGE } from '../catalogue/skill';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import { type CartOwner, ownedBy } from './cartQueries';
import { liveTickets } from './liveTickets';
import { recordTicketEvents, refsOf } from './ticketHistory';
import { bumpVersion, inTransaction, PickCollision } from './ticketTransactions';

export type { CartOwner } from './cartQueries';
export { listCart } from './cartQueries';
export { reservationStats } from './ticketTransactions';

// The ticket state machine's reserve / release side (architecture.md):
//   available --reserve--> reserved (cart item, expiresAt) --remove/expire--> available
// A number is one row in `tickets` while held or sold; UNIQUE (competition_id, number) is what
// makes a double hold impossible, whatever the interleaving. Every change bumps the competition's
// version in the same transaction; events are published only after COMMIT.

export interface ReservationDeps {
  db: Knex;
  events: EventBus;
  ttlSeconds: number;
}

const CLOSED_MESSAGE = 'This competition is closed to new entries.';
const TAKEN_MESSAGE = 'Sorry, some of those numbers have just been taken by someone else.';
const ITEM_LIMIT_MESSAGE = 'A cart item can hold at most 10 tickets.';
const CHOSEN_QUANTITY_MESSAGE = "Can't modify quantity for tickets with selected numbers";
const REMOVED = 'removed from cart';
const onlyAvailable = (n: number) => `Only ${n} tickets are available.`;

async function openCompetition(trx: Knex.Transaction, competitionId: number, now: number) {
  const competition = await Competition.query(trx).findById(competitionId);
  if (!competition || competition.status === 'archived') throw notFound('Competition not found');
  // Closed at its end date (docs/draws.md), or drawn (even if an admin made it active again).
  if (competition.status !== 'active' || competition.endDate <= now || competition.drawnAt)
    throw conflict(CLOSED_MESSAGE, undefined, ERROR_CODES.closed);
  return competition;
}

/** Numbers that are sold or held by a live hold. Expired holds are free, swept or not. */
export async function unavailableNumbers(db: Knex, competitionId: number, now: number): Promise<Set<number>> {
  const rows: Array<{ number: number }> = await liveTickets(db, competitionId, now).select('number');
  return new Set(rows.map((r) => r.number));
}

/** `count` distinct numbers chosen uniformly from the available ones. */
export function pickAvailable(total: number, taken: Set<number>, count: number): number[] {
  const free = total - taken.size;
  if (free < count)
    throw conflict(
      onlyAvailable(Math.max(0, free)),
      { available: Math.max(0, free) },
      ERROR_CODES.notEnoughTickets,
    );
  const picked = new Set<number>();
  if (taken.size < total / 2) {
    // Sparse: rejection sampling is uniform and fast.
    while (picked.size < count) {
      const n = randomInt(1, total + 1);
      if (!taken.has(n)) picked.add(n);
    }
  } else {
    // Dense: sample from the explicit list of free numbers (partial Fisher-Yates).
    const pool: number[] = [];
    for (let n = 1; n <= total; n++) if (!taken.has(n)) pool.push(n);
    for (let i = 0; i < count; i++) {
      const j = i + randomInt(0, pool.length - i);
      [pool[i], pool[j]] = [pool[j]!, pool[i]!];
      picked.add(pool[i]!);
    }
  }
  return [...picked].sort((a, b) => a - b);
}

/**
 * Removes expired holds on these numbers so they can be held again (they already block nobody).
 * Found with a plain read and deleted by primary key: a DELETE by number range would take gap
 * locks under REPEATABLE READ and deadlock concurrent holders.
 */
async function clearExpiredHolds(
  trx: Knex.Transaction,
  competitionId: number,
  numbers: number[],
  now: number,
) {
  const expired: Array<{ id: number; number: number }> = await trx('tickets')
    .where({ competitionId, status: 'reserved' })
    .whereIn('number', numbers)
    .where('expiresAt', '<=', now)
    .select('id', 'number');
  if (expired.length) {
    await trx('tickets')
      .whereIn(
        'id',
        expired.map((r) => r.id),
      )
      .delete();
    const released = expired.map((r) => r.number);
    await recordTicketEvents(trx, refsOf(competitionId, released), 'released', { note: 'expired' }, now);
  }
  return expired.length;
}

/** Held (live) plus bought tickets of this person in a competition, for the per-person cap. */
async function ticketsOfOwner(trx: Knex.Transaction, competitionId: number, owner: CartOwner, now: number) {
  const q = liveTickets(trx, competitionId, now)
    .andWhere((q) => {
      q.where('guestId', owner.guestId);
      if (owner.userId) q.orWhere('userId', owner.userId);
    })
    .count({ n: '*' })
    .first();
  // A locking read: under REPEATABLE READ a plain SELECT would see the snapshot taken at this
  // transaction's first read, before the competition lock was granted, and miss holds committed
  // since. The locking read sees the latest committed rows.
  if (engineOfKnex(trx) === 'mysql') q.forShare();
  const row = await q;
  return Number((row as { n: number } | undefined)?.n ?? 0);
}

async function enforceCap(
  trx: Knex.Transaction,
  competition: Competition,
  owner: CartOwner,
  adding: number,
  now: number,
) {
  const cap = competition.maxTicketsPerUser;
  if (!cap) return;
  // Capped competitions serialise their holds on the competition row, so two parallel requests
  // from one person cannot both pass the count. (SQLite transactions are serial anyway.)
  if (engineOfKnex(trx) === 'mysql')
    await trx('competitions').where({ id: competition.id }).forUpdate().first('id');
  const has = await ticketsOfOwner(trx, competition.id, owner, now);
  if (has + adding > cap) {
    throw conflict(
      `You can have at most ${cap} tickets for this competition${has ? ` and already have ${has}` : ''}.`,
      { limit: cap, current: has },
      ERROR_CODES.overCap,
    );
  }
}

/**
 * Inserts the holds optimistically. On a unique-key conflict, expired holds among the numbers
 * (which block nobody) are removed and the insert tried once more; a conflict after that means
 * the numbers are really taken. Returns false in that case.
 */
async function tryInsertHolds(
  trx: Knex.Transaction,
  competition: Competition,
  item: { id: number; expiresAt: number },
  owner: CartOwner,
  numbers: number[],
  now: number,
): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await trx('tickets').insert(
        numbers.map((number) => ({
          competitionId: competition.id,
          number,
          status: 'reserved',
          cartItemId: item.id,
          guestId: owner.guestId,
          userId: owner.userId,
          isClaimed: false,
          expiresAt: item.expiresAt,
          createdAt: now,
          updatedAt: now,
        })),
      );
      // The hold path's only extra write: the numbers' history.
      await recordTicketEvents(trx, refsOf(competition.id, numbers), 'held', { userId: owner.userId }, now);
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt > 0 || !(await clearExpiredHolds(trx, competition.id, numbers, now))) return false;
    }
  }
  return false;
}

/** Lucky Dip numbers, inserted; a collision with a concurrent hold restarts the transaction. */
async function holdRandom(
  trx: Knex.Transaction,
  competition: Competition,
  item: { id: number; expiresAt: number },
  owner: CartOwner,
  count: number,
  now: number,
) {
  const numbers = pickAvailable(
    competition.totalTickets,
    await unavailableNumbers(trx, competition.id, now),
    count,
  );
  if (!(await tryInsertHolds(trx, competition, item, owner, numbers, now))) throw new PickCollision();
  return numbers;
}

export interface AddResult {
  item: CartItem;
  competition: Competition;
  /** Every number the item holds after the change. */
  heldNumbers: number[];
  created: boolean;
}

/**
 * POST /api/cart: holds the chosen numbers (all or none, 409 with the taken ones), or `quantity`
 * random numbers for a Lucky Dip. Same numbers again, or a second Lucky Dip for the same
 * competition, merges into the existing item (at most 10 tickets per item). The skill question
 * is checked once the competition is known to exist (404 first, then 403).
 */
export async function addToCart(
  deps: ReservationDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now = Date.now(),
): Promise<AddResult> {
  const chosen = [...(input.selectedNumbers ?? [])].sort((a, b) => a - b);
  let version = 0;
  let held: number[] = [];
  const result = await inTransaction(deps.db, async (trx): Promise<AddResult> => {
    held = [];
    const competition = await openCompetition(trx, input.competitionId, now);
    if (!skillPassed) throw forbidden(SKILL_REQUIRED_MESSAGE, ERROR_CODES.skillRequired);
    if (chosen.some((n) => n > competition.totalTickets)) {
      throw badRequest(`Ticket numbers must be between 1 and ${competition.totalTickets}.`);
    }
    const mine = (await CartItem.query(trx)
      .modify(ownedBy(owner))
      .where('competitionId', competition.id)
      .where('expiresAt', '>', now)) as CartItem[];

    if (chosen.length) {
      const same = mine.find((i) => sameNumbers(i.selectedNumbers, chosen));
      if (same) return { item: same, competition, heldNumbers: chosen, created: false }; // already this item's
      await enforceCap(trx, competition, owner, chosen.length, now);
      const item = await createItem(trx, competition.id, owner, chosen.length, chosen, now, deps.ttlSeconds);
      if (!(await tryInsertHolds(trx, competition, item, owner, chosen, now))) {
        throw conflict(
          TAKEN_MESSAGE,
          { taken: await takenAmong(trx, competition.id, chosen, now) },
          ERROR_CODES.numberTaken,
        );
      }
      held = chosen;
      version = await bumpVersion(trx, competition.id);
      return { item, competition, heldNumbers: chosen, created: true };
    }

    const luckyDip = mine.find((i) => i.selectedNumbers.length === 0);
    if (luckyDip && luckyDip.quantity + input.quantity > 10) throw badRequest(ITEM_LIMIT_MESSAGE);
    await enforceCap(trx, competition, owner, input.quantity, now);
    const item =
      luckyDip ?? (await createItem(trx, competition.id, owner, input.quantity, [], now, deps.ttlSeconds));
    held = await holdRandom(trx, competition, item, owner, input.quantity, now);
    let heldNumbers = held;
    if (luckyDip) {
      item.quantity = luckyDip.quantity + input.quantity;
      await CartItem.query(trx).findById(luckyDip.id).patch({ quantity: item.quantity, updatedAt: now });
      const rows: Array<{ number: number }> = await trx('tickets')
        .where({ cartItemId: luckyDip.id, status: 'reserved' })
        .select('number');
      heldNumbers = rows.map((r) => r.number).sort((a, b) => a - b);
    }
    version = await bumpVersion(trx, competition.id);
    return { item, competition, heldNumbers, created: !luckyDip };
  });
  if (held.length) {
    deps.events.publish('tickets.reserved', { competitionId: input.competitionId, version, numbers: held });
    deps.events.publish('cart.changed', { owner });
  }
  return result;
}

const sameNumbers = (a: number[], sortedB: number[]) =>
  a.length === sortedB.length && [...a].sort((x, y) => x - y).every((n, i) => n === sortedB[i]);

async function createItem(
  trx: Knex.Transaction,
  competitionId: number,
  owner: CartOwner,
  quantity: number,
  selectedNumbers: number[],
  now: number,
  ttlSeconds: number,
) {
  return CartItem.query(trx).insert({
    guestId: owner.guestId,
    userId: owner.userId,
    competitionId,
    quantity,
    selectedNumbers,
    reservedAt: now,
    expiresAt: now + ttlSeconds * 1000,
    createdAt: now,
    updatedAt: now,
  });
}

/** Which of these numbers are held or sold right now (a locking read sees the latest commits). */
async function takenAmong(trx: Knex.Transaction, competitionId: number, numbers: number[], now: number) {
  const q = liveTickets(trx, competitionId, now)
    .whereIn('number', numbers)
    .select('number')
    .orderBy('number');
  if (engineOfKnex(trx) === 'mysql') q.forShare();
  return ((await q) as Array<{ number: number }>).map((r) => r.number);
}

async function findOwnItem(trx: Knex.Transaction, owner: CartOwner, itemId: number) {
  const item = (await CartItem.query(trx).modify(ownedBy(owner)).findById(itemId)) as CartItem | undefined;
  if (!item) throw notFound('Cart item not found');
  return item;
}

/** Deletes items (their holds go with them) and returns the numbers released per competition. */
export async function deleteItems(trx: Knex.Transaction, items: CartItem[], why: string) {
  const released = new Map<number, number[]>();
  if (!items.length) return released;
  const ids = items.map((i) => i.id);
  const rows: Array<{ competitionId: number; number: number }> = await trx('tickets')
    .whereIn('cartItemId', ids)
    .where('status', 'reserved')
    .select('competitionId', 'number');
  // Their held rows go with them (ON DELETE CASCADE); sold rows never reference a cart item.
  await trx('cartItems').whereIn('id', ids).delete();
  await recordTicketEvents(trx, rows, 'released', { note: why });
  for (const r of rows) released.set(r.competitionId, [...(released.get(r.competitionId) ?? []), r.number]);
  return released;
}

/** Bumps versions and returns the release events to publish after commit. */
export async function versionReleases(trx: Knex.Transaction, released: Map<number, number[]>) {
  const out: Array<{ competitionId: number; version: number; numbers: number[] }> = [];
  for (const [competitionId, numbers] of released) {
    if (!numbers.length) continue;
    out.push({
      competitionId,
      version: await bumpVersion(trx, competitionId),
      numbers: numbers.sort((a, b) => a - b),
    });
  }
  return out;
}

export function publishReleases(
  events: EventBus,
  releases: Array<{ competitionId: number; version: number; numbers: number[] }>,
) {
  for (const r of releases) events.publish('tickets.released', r);
}

/** DELETE /api/cart/:id */
export async function removeItem(deps: ReservationDeps, owner: CartOwner, itemId: number) {
  const releases = await inTransaction(deps.db, async (trx) => {
    const item = await findOwnItem(trx, owner, itemId);
    return versionReleases(trx, await deleteItems(trx, [item], REMOVED));
  });
  publishReleases(deps.events, releases);
  deps.events.publish('cart.changed', { owner });
}

/** DELETE /api/cart */
export async function clearCart(deps: ReservationDeps, owner: CartOwner) {
  const releases = await inTransaction(deps.db, async (trx) => {
    const items = (await CartItem.query(trx).modify(ownedBy(owner))) as CartItem[];
    return versionReleases(trx, await deleteItems(trx, items, REMOVED));
  });
  publishReleases(deps.events, releases);
  deps.events.publish('cart.changed', { owner });
}

/** PATCH /api/cart/:id: a Lucky Dip item holds or releases numbers to match the new quantity. */
export async function changeQuantity(
  deps: ReservationDeps,
  owner: CartOwner,
  itemId: number,
  quantity: number,
  now = Date.now(),
) {
  let reserved: { competitionId: number; version: number; numbers: number[] } | undefined;
  let releases: Array<{ competitionId: number; version: number; numbers: number[] }> = [];
  const item = await inTransaction(deps.db, async (trx) => {
    reserved = undefined;
    releases = [];
    const current = await findOwnItem(trx, owner, itemId);
    if (current.expiresAt <= now) throw notFound('Cart item not found');
    if (current.selectedNumbers.length > 0) throw badRequest(CHOSEN_QUANTITY_MESSAGE);
    const delta = quantity - current.quantity;
    if (delta === 0) return current;
    const competition = await openCompetition(trx, current.competitionId, now);
    if (delta > 0) {
      await enforceCap(trx, competition, owner, delta, now);
      const numbers = await holdRandom(trx, competition, current, owner, delta, now);
      reserved = { competitionId: competition.id, version: await bumpVersion(trx, competition.id), numbers };
    } else {
      const rows: Array<{ id: number; number: number }> = await trx('tickets')
        .where({ cartItemId: current.id, status: 'reserved' })
        .orderBy('id', 'desc')
        .limit(-delta)
        .select('id', 'number');
      await trx('tickets')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .delete();
      await recordTicketEvents(
        trx,
        refsOf(
          competition.id,
          rows.map((r) => r.number),
        ),
        'released',
        {
          note: REMOVED,
        },
      );
      releases = await versionReleases(trx, new Map([[competition.id, rows.map((r) => r.number)]]));
    }
    return CartItem.query(trx).patchAndFetchById(current.id, { quantity, updatedAt: now });
  });
  if (reserved) deps.events.publish('tickets.reserved', reserved);
  publishReleases(deps.events, releases);
  deps.events.publish('cart.changed', { owner });
  return item;
}

/**
 * Releases expired holds: deletes expired cart items (and their holds) one competition at a time
 * and publishes each release once. Safe with several processes sweeping at once: rows are locked
 * and re-checked inside the transaction, so a second sweeper finds nothing left to release.
 */
export async function sweepExpired(deps: ReservationDeps, now = Date.now(), batch = 500): Promise<number> {
  const due: Array<{ id: number; competitionId: number }> = await deps
    .db('cartItems')
    .where('expiresAt', '<=', now)
    .orderBy('expiresAt')
    .limit(batch)
    .select('id', 'competitionId');
  const byCompetition = new Map<number, number[]>();
  for (const d of due)
    byCompetition.set(d.competitionId, [...(byCompetition.get(d.competitionId) ?? []), d.id]);
  let releasedCount = 0;
  for (const ids of byCompetition.values()) {
    const outcome = await inTransaction(deps.db, async (trx) => {
      const q = CartItem.query(trx).whereIn('id', ids).where('expiresAt', '<=', now);
      if (engineOfKnex(trx) === 'mysql') q.forUpdate();
      const items = (await q) as CartItem[];
      const releases = await versionReleases(trx, await deleteItems(trx, items, 'expired'));
      return { items, releases };
    });
    publishReleases(deps.events, outcome.releases);
    releasedCount += outcome.releases.reduce((sum, r) => sum + r.numbers.length, 0);
    for (const group of groupByOwner(outcome.items).values()) {
      const owner = ownerOf(group[0]!);
      deps.events.publish('cart.expired', { owner, itemIds: group.map((i) => i.id) });
      deps.events.publish('cart.changed', { owner });
    }
  }
  return releasedCount;
}

const ownerOf = (i: CartItem): CartOwner => ({ guestId: i.guestId, userId: i.userId });

function groupByOwner(items: CartItem[]) {
  const groups = new Map<string, CartItem[]>();
  for (const i of items) {
    const key = i.userId ? `u${i.userId}` : `g${i.guestId}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  return groups;
}
