import type { Knex } from 'knex';
import { type AddToCartInput, SKILL_REQUIRED_MESSAGE } from '../../contract/cart';
import { ERROR_CODES } from '../../contract/errors';
import { CartItem, type Competition } from '../../db/models';
import { read, runBatch, write } from '../../db/statementBatch';
import { badRequest, conflict, forbidden, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { type CartOwner, liveItemsRead, ownedBy } from './cartQueries';
import { cartChanged, cartKeyOf, cartRevisionBumpForBatch, recordCartChange } from './cartRevision';
import { bumpVersionNow, versionBumpForBatch } from './competitionVersions';
import { recordTicketEvents, refsOf } from './history/ticketHistory';
import {
  assertMayPlay,
  assertNotOnBreak,
  assertOpen,
  assertUnderCap,
  breakRead,
  capLock,
  competitionRead,
  defaultCapRead,
  enforceCap,
  findOwnItem,
  lockOwnerCap,
  openCompetition,
  ownerTicketsRead,
  sameNumbers,
  takenAmong,
  takenFromOthers,
  takenRead,
} from './holdChecks';
import {
  createItem,
  deleteItems,
  emitReleases,
  holdRandom,
  type TicketChange,
  tryInsertHolds,
  versionReleases,
} from './holdRows';

export type { CartOwner } from './cartQueries';

// The cart's use cases on the ticket state machine (docs/architecture.md):
//   available --hold--> reserved (cart item, expiresAt) --remove/expire--> available
// Each one reads and decides first (holdChecks.ts), then writes (holdRows.ts), in one unit of
// work: the competition versions and the cart revision are bumped in the same transaction, and
// the events go out after COMMIT.

export interface ReservationDeps {
  db: Knex;
  events: EventBus;
  ttlSeconds: number;
  /** This process's holds of chosen numbers in flight (one per app). */
  inFlight?: HoldsInFlight;
  /** Competitions this process recently found open, for the quick refusal (one per app). */
  recentlyOpen?: RecentlyOpen;
}

// How often a hold waits for another in flight on its numbers before it goes ahead regardless (the
// unique key decides then).
const MAX_WAITS = 3;

// The chosen numbers this process is holding right now: a hold's unit of work from its start to
// its COMMIT or ROLLBACK, and whose it is. Someone else's hold in flight on a number refuses a
// request for it at once, from memory (refuseTakenEarly): on a hot number the losers get their 409
// without a read, instead of waiting for the winner and reading again, or blocking on the winner's
// row lock in a transaction of a dozen statements. The same person's hold in flight (a double
// click) is waited for, then the numbers are looked at again: the second request answers with the
// line the first one made. Holds in other processes still meet on the unique key, as before.

const keyOf = (competitionId: number, n: number) => `${competitionId}:${n}`;

export class HoldsInFlight {
  private numbers = new Map<string, { hold: Promise<unknown>; owner: string }>();

  /** The numbers of these that someone other than `owner` is holding right now. */
  takenByOthers(competitionId: number, numbers: number[], owner: CartOwner): number[] {
    const mine = cartKeyOf(owner);
    return numbers.filter((n) => {
      const found = this.numbers.get(keyOf(competitionId, n));
      return found !== undefined && found.owner !== mine;
    });
  }

  /** The holds in flight on any of these numbers (none: nothing to wait for). */
  pending(competitionId: number, numbers: number[]): Promise<unknown>[] {
    const found = new Set<Promise<unknown>>();
    for (const n of numbers) {
      const hold = this.numbers.get(keyOf(competitionId, n))?.hold;
      if (hold) found.add(hold);
    }
    return [...found];
  }

  /** Runs `work`, the owner's hold of these numbers, with them in flight until it settles. */
  run<T>(competitionId: number, numbers: number[], owner: CartOwner, work: () => Promise<T>): Promise<T> {
    const hold = work();
    const entry = { hold, owner: cartKeyOf(owner) };
    const keys = numbers.map((n) => keyOf(competitionId, n));
    for (const key of keys) this.numbers.set(key, entry);
    const done = () => {
      for (const key of keys) if (this.numbers.get(key) === entry) this.numbers.delete(key);
    };
    hold.then(done, done);
    return hold;
  }
}

// How long the quick refusal trusts a competition it found open. A hot number's losers all ask
// about the same row; a second out of date changes at most which 409 a taken number hears, since
// that "open" is never the last word (below).
const RECENTLY_OPEN_MS = 1000;

/**
 * The competitions this process found open in the last RECENTLY_OPEN_MS, for refuseTakenEarly
 * only: there the competition row only decides which answer comes first, and whatever the quick
 * refusal lets through is decided again from fresh reads in the hold's transaction (planHold).
 * Only "open" is remembered; a competition found closed, missing or past its end is read again.
 * So within that second a request for taken numbers on a competition that has just closed hears
 * "taken" rather than "closed"; one for free numbers hears "closed" at once.
 */
export class RecentlyOpen {
  private seen = new Map<number, { competition: Competition; until: number }>();

  async open(db: Knex, competitionId: number, now: number): Promise<Competition> {
    const hit = this.seen.get(competitionId);
    if (hit && hit.until > now && hit.competition.endDate > now) return hit.competition;
    this.seen.delete(competitionId);
    const competition = await openCompetition(db, competitionId, now);
    this.seen.set(competitionId, { competition, until: now + RECENTLY_OPEN_MS });
    return competition;
  }
}

const TAKEN_MESSAGE = 'Sorry, some of those numbers have just been taken by someone else.';
const ITEM_LIMIT_MESSAGE = 'A cart item can hold at most 10 tickets.';
const CHOSEN_QUANTITY_MESSAGE = "Can't modify quantity for tickets with selected numbers";
const REMOVED = 'removed from cart';

/** What a cart change produced: the competition versions it bumped and the cart's new revision. */
export interface CartChange {
  changes: TicketChange[];
  cartRevision: number | null;
}

export interface AddResult extends CartChange {
  item: CartItem;
  competition: Competition;
  /** Every number the item holds after the change. */
  heldNumbers: number[];
  created: boolean;
}

/** What POST /api/cart will do, decided from reads only. */
type HoldPlan =
  | { kind: 'already-held'; competition: Competition; item: CartItem; numbers: number[] }
  | { kind: 'chosen'; competition: Competition; numbers: number[] }
  | { kind: 'lucky-dip'; competition: Competition; quantity: number; mergeInto: CartItem | undefined };

/**
 * Everything a hold decides from, in one batch (db/statementBatch.ts). First, before any read,
 * the cap lock: this person's other holds on the competition wait, and the reads after it see
 * everything they committed (holdChecks.ts). So the count and the taken numbers are plain reads.
 */
function readHoldFacts(
  trx: Knex.Transaction,
  owner: CartOwner,
  competitionId: number,
  chosen: number[],
  now: number,
) {
  return runBatch(
    trx,
    capLock(trx, competitionId, owner),
    competitionRead(trx, competitionId),
    owner.userId ? breakRead(trx, owner.userId, now) : undefined,
    liveItemsRead(trx, owner, now, competitionId),
    defaultCapRead(trx),
    ownerTicketsRead(trx, competitionId, owner, now),
    // Numbers someone already holds (committed before this transaction's snapshot) lose at once,
    // without a lock: on a hot number most requests lose, and an INSERT would first wait for the
    // holder's transaction. A number taken since is still caught by the unique key.
    chosen.length ? takenRead(trx, competitionId, chosen, now) : undefined,
  );
}

async function planHold(
  trx: Knex.Transaction,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
): Promise<HoldPlan> {
  const chosen = [...(input.selectedNumbers ?? [])].sort((a, b) => a - b);
  const [, found, breakUntil, mine, siteCap, has, taken] = await readHoldFacts(
    trx,
    owner,
    input.competitionId,
    chosen,
    now,
  );
  // The answers in the order a visitor should hear them: what, may I, how many, which.
  const competition = assertOpen(found, now);
  if (!skillPassed) throw forbidden(SKILL_REQUIRED_MESSAGE, ERROR_CODES.skillRequired);
  assertNotOnBreak(breakUntil ?? null);
  if (chosen.some((n) => n > competition.totalTickets)) {
    throw badRequest(`Ticket numbers must be between 1 and ${competition.totalTickets}.`);
  }
  const cap = competition.maxTicketsPerUser ?? siteCap;
  if (chosen.length) {
    const same = mine.find((i) => sameNumbers(i.selectedNumbers, chosen));
    if (same) return { kind: 'already-held', competition, item: same, numbers: chosen };
    assertUnderCap(cap, has, chosen.length);
    if (taken?.length) throw conflict(TAKEN_MESSAGE, { taken }, ERROR_CODES.numberTaken);
    return { kind: 'chosen', competition, numbers: chosen };
  }
  const mergeInto = mine.find((i) => i.selectedNumbers.length === 0);
  if (mergeInto && mergeInto.quantity + input.quantity > 10) throw badRequest(ITEM_LIMIT_MESSAGE);
  assertUnderCap(cap, has, input.quantity);
  return { kind: 'lucky-dip', competition, quantity: input.quantity, mergeInto };
}

/** What a hold wrote: its item, the numbers it took, and the counters it bumped. */
interface AppliedHold {
  item: CartItem;
  held: number[];
  heldNumbers: number[];
  version: number;
  cartRevision: number;
}

/**
 * The hold's writes. The numbers, their history, and then the competition version and the cart
 * revision (last: their rows stay locked until COMMIT) go in one batch.
 */
async function applyHold(
  trx: Knex.Transaction,
  owner: CartOwner,
  plan: Exclude<HoldPlan, { kind: 'already-held' }>,
  ttlSeconds: number,
  now: number,
): Promise<AppliedHold> {
  const { competition } = plan;
  const bumps = [versionBumpForBatch(trx, competition.id), cartRevisionBumpForBatch(trx, owner)] as const;
  if (plan.kind === 'chosen') {
    const item = await createItem(
      trx,
      competition.id,
      owner,
      plan.numbers.length,
      plan.numbers,
      now,
      ttlSeconds,
    );
    const bumped = await tryInsertHolds(trx, competition, item, owner, plan.numbers, now, ...bumps);
    if (!bumped) {
      throw conflict(
        TAKEN_MESSAGE,
        { taken: await takenAmong(trx, competition.id, plan.numbers, now) },
        ERROR_CODES.numberTaken,
      );
    }
    const [version, cartRevision] = bumped;
    return { item, held: plan.numbers, heldNumbers: plan.numbers, version, cartRevision };
  }
  const { mergeInto } = plan;
  if (!mergeInto) {
    const item = await createItem(trx, competition.id, owner, plan.quantity, [], now, ttlSeconds);
    const { numbers, results } = await holdRandom(
      trx,
      competition,
      item,
      owner,
      plan.quantity,
      now,
      ...bumps,
    );
    const [version, cartRevision] = results;
    return { item, held: numbers, heldNumbers: numbers, version, cartRevision };
  }
  // A second Lucky Dip grows the item; its numbers, old and new, are read back before the bumps.
  const quantity = mergeInto.quantity + plan.quantity;
  const { numbers, results } = await holdRandom(
    trx,
    competition,
    mergeInto,
    owner,
    plan.quantity,
    now,
    write(trx('cartItems').where('id', mergeInto.id).update({ quantity, updatedAt: now })),
    read(
      trx('tickets')
        .where({ cartItemId: mergeInto.id, status: 'reserved' })
        .select('number')
        .orderBy('number'),
      (rows: { number: number }[]) => rows.map((r) => r.number),
    ),
    ...bumps,
  );
  const [, heldNumbers, version, cartRevision] = results;
  mergeInto.quantity = quantity;
  return { item: mergeInto, held: numbers, heldNumbers, version, cartRevision };
}

/**
 * The quick refusal of chosen numbers, before any lock or transaction: 409 with the numbers taken
 * when someone else is holding one of them in this process right now (HoldsInFlight: no read at
 * all), or holds or bought one now (one read). On a hot number almost every request loses, and
 * here it loses for at most two reads (three for an account: the break check; one fewer when the
 * competition is RecentlyOpen) instead of a transaction of eight statements. The answers that
 * come before it (404, closed, the skill question, a break) are the same as in planHold; the
 * per-person cap is not counted first, so a request refused for both hears about the numbers.
 * Whatever passes is decided again in planHold, where the unique key settles a race.
 */
async function refuseTakenEarly(
  { db, recentlyOpen, inFlight }: ReservationDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
): Promise<void> {
  const chosen = input.selectedNumbers ?? [];
  if (!chosen.length || !skillPassed) return;
  const competition = recentlyOpen
    ? await recentlyOpen.open(db, input.competitionId, now)
    : await openCompetition(db, input.competitionId, now);
  await assertMayPlay(db, owner.userId, now);
  if (chosen.some((n) => n > competition.totalTickets)) return; // planHold answers 400
  const beingTaken = inFlight?.takenByOthers(competition.id, chosen, owner) ?? [];
  if (beingTaken.length) throw conflict(TAKEN_MESSAGE, { taken: beingTaken }, ERROR_CODES.numberTaken);
  const taken = await takenFromOthers(db, competition.id, chosen, owner, now);
  if (taken.length) throw conflict(TAKEN_MESSAGE, { taken }, ERROR_CODES.numberTaken);
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
  const chosen = input.selectedNumbers ?? [];
  // Only a request that may hold marks its numbers in flight: one without the skill answer would
  // otherwise refuse others until its own 403.
  const inFlight = chosen.length && skillPassed ? deps.inFlight : undefined;
  // The person's own hold in flight on any of the numbers (someone else's is refused above) is
  // waited for, then the numbers are looked at again (HoldsInFlight).
  for (let waits = 0; ; waits++) {
    await refuseTakenEarly(deps, owner, input, skillPassed, now);
    const pending = inFlight?.pending(input.competitionId, chosen) ?? [];
    if (!pending.length || waits >= MAX_WAITS) break;
    await Promise.allSettled(pending);
  }
  const hold = () => holdInUnit(deps, owner, input, skillPassed, now);
  return inFlight ? inFlight.run(input.competitionId, chosen, owner, hold) : hold();
}

/** The hold's unit of work: plan from reads, then write (planHold, applyHold). */
function holdInUnit(
  deps: ReservationDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
): Promise<AddResult> {
  return inUnitOfWork(deps, async (uow): Promise<AddResult> => {
    const plan = await planHold(uow.trx, owner, input, skillPassed, now);
    const { competition } = plan;
    if (plan.kind === 'already-held') {
      return {
        item: plan.item,
        competition,
        heldNumbers: plan.numbers,
        created: false,
        changes: [],
        cartRevision: null,
      };
    }
    const { item, held, heldNumbers, version, cartRevision } = await applyHold(
      uow.trx,
      owner,
      plan,
      deps.ttlSeconds,
      now,
    );
    const change = { competitionId: competition.id, version, numbers: held };
    uow.emit('tickets.reserved', change);
    recordCartChange(uow, owner, cartRevision);
    return {
      item,
      competition,
      heldNumbers,
      created: !(plan.kind === 'lucky-dip' && plan.mergeInto),
      changes: [change],
      cartRevision,
    };
  });
}

/** DELETE /api/cart/:id */
export function removeItem(deps: ReservationDeps, owner: CartOwner, itemId: number): Promise<CartChange> {
  return inUnitOfWork(deps, async (uow) => {
    const item = await findOwnItem(uow.trx, owner, itemId);
    return releaseItems(uow, owner, [item]);
  });
}

/** DELETE /api/cart */
export function clearCart(deps: ReservationDeps, owner: CartOwner): Promise<CartChange> {
  return inUnitOfWork(deps, async (uow) => {
    const items = (await CartItem.query(uow.trx).modify(ownedBy(owner))) as CartItem[];
    return releaseItems(uow, owner, items);
  });
}

async function releaseItems(uow: UnitOfWork, owner: CartOwner, items: CartItem[]): Promise<CartChange> {
  const changes = await versionReleases(uow.trx, await deleteItems(uow.trx, items, REMOVED));
  emitReleases(uow, changes);
  return { changes, cartRevision: await cartChanged(uow, owner) };
}

/** What PATCH /api/cart/:id will do to a Lucky Dip item, decided from reads only. */
async function planQuantity(
  trx: Knex.Transaction,
  owner: CartOwner,
  itemId: number,
  quantity: number,
  now: number,
) {
  const current = await findOwnItem(trx, owner, itemId);
  if (current.expiresAt <= now) throw notFound('Cart item not found');
  if (current.selectedNumbers.length > 0) throw badRequest(CHOSEN_QUANTITY_MESSAGE);
  const delta = quantity - current.quantity;
  if (delta === 0) return { current, delta, competition: null };
  const competition = await openCompetition(trx, current.competitionId, now);
  if (delta > 0) {
    await lockOwnerCap(trx, competition.id, owner);
    await enforceCap(trx, competition, owner, delta, now);
  }
  return { current, delta, competition };
}

/** Releases the item's `count` most recently held numbers. */
async function releaseNewest(trx: Knex.Transaction, item: CartItem, count: number) {
  const rows: Array<{ id: number; number: number }> = await trx('tickets')
    .where({ cartItemId: item.id, status: 'reserved' })
    .orderBy('id', 'desc')
    .limit(count)
    .select('id', 'number');
  await trx('tickets')
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .delete();
  const numbers = rows.map((r) => r.number);
  await recordTicketEvents(trx, refsOf(item.competitionId, numbers), 'released', { note: REMOVED });
  return versionReleases(trx, new Map([[item.competitionId, numbers]]));
}

/** PATCH /api/cart/:id: a Lucky Dip item holds or releases numbers to match the new quantity. */
export function changeQuantity(
  deps: ReservationDeps,
  owner: CartOwner,
  itemId: number,
  quantity: number,
  now = Date.now(),
): Promise<CartChange & { item: CartItem }> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const { current, delta, competition } = await planQuantity(trx, owner, itemId, quantity, now);
    let changes: TicketChange[] = [];
    if (competition && delta > 0) {
      await assertMayPlay(trx, owner.userId, now);
      const { numbers } = await holdRandom(trx, competition, current, owner, delta, now);
      changes = [
        { competitionId: competition.id, version: await bumpVersionNow(trx, competition.id), numbers },
      ];
      uow.emit('tickets.reserved', changes[0]!);
    } else if (competition) {
      changes = await releaseNewest(trx, current, -delta);
      emitReleases(uow, changes);
    }
    const item =
      delta === 0
        ? current
        : await CartItem.query(trx).patchAndFetchById(current.id, { quantity, updatedAt: now });
    return { item, changes, cartRevision: await cartChanged(uow, owner) };
  });
}
