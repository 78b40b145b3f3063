import type { Knex } from 'knex';
import { type AddToCartInput, SKILL_REQUIRED_MESSAGE } from '../../contract/cart';
import { ERROR_CODES } from '../../contract/errors';
import { CartItem, type Competition } from '../../db/models';
import { read, runBatch, write } from '../../db/statementBatch';
import { badRequest, forbidden, notFound } from '../platform/errors';
import type { EventBus } from '../platform/events';
import { inUnitOfWork, type UnitOfWork } from '../platform/unitOfWork';
import { type CartOwner, liveItemsRead, ownedBy } from './cartQueries';
import { cartChanged, cartRevisionBumpForBatch, recordCartChange } from './cartRevision';
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
  numbersTaken,
  openCompetition,
  ownerTicketsRead,
  sameNumbers,
  takenAmong,
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
import { assertAdmitted } from './queue/gate';
import { type QuickRefusalDeps, withQuickRefusal } from './quickRefusal/refuseTaken';

export type { CartOwner } from './cartQueries';

// The cart's use cases on the ticket state machine (docs/architecture.md):
//   available --hold--> reserved (cart item, expiresAt) --remove/expire--> available
// Each one reads and decides first (holdChecks.ts), then writes (holdRows.ts), in one unit of
// work: the competition versions and the cart revision are bumped in the same transaction, and
// the events go out after COMMIT.

export interface ReservationDeps extends QuickRefusalDeps {
  events: EventBus;
  ttlSeconds: number;
}

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

/** Everything a hold decides from (readHoldFacts). */
interface HoldFacts {
  competition: Competition | undefined;
  /** When the account's break ends; null for a guest, or an account not taking one. */
  breakUntil: number | null;
  /** The owner's live items in this competition. */
  ownItems: CartItem[];
  siteCap: number;
  /** The owner's held and bought tickets in this competition, for the cap. */
  ownerTickets: number;
  /** The chosen numbers someone already holds or bought (none when no numbers are chosen). */
  taken: number[];
}

/**
 * Everything a hold decides from, in one batch (db/statementBatch.ts). First, before any read,
 * the cap lock: this person's other holds on the competition wait, and the reads after it see
 * everything they committed (holdChecks.ts). So the count and the taken numbers are plain reads.
 */
async function readHoldFacts(
  trx: Knex.Transaction,
  owner: CartOwner,
  competitionId: number,
  chosen: number[],
  now: number,
): Promise<HoldFacts> {
  const [, competition, breakUntil, ownItems, siteCap, ownerTickets, taken] = await runBatch(
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
  return { competition, breakUntil: breakUntil ?? null, ownItems, siteCap, ownerTickets, taken: taken ?? [] };
}

async function planHold(
  trx: Knex.Transaction,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now: number,
): Promise<HoldPlan> {
  const chosen = [...(input.selectedNumbers ?? [])].sort((a, b) => a - b);
  const facts = await readHoldFacts(trx, owner, input.competitionId, chosen, now);
  const { breakUntil, ownItems, siteCap, ownerTickets, taken } = facts;
  // The answers in the order a visitor should hear them: what, may I, how many, which.
  const competition = assertOpen(facts.competition, now);
  // A queued launch still letting people in: only the admitted may hold (read only then).
  if (competition.launchQueue) await assertAdmitted(trx, competition, owner, now);
  if (!skillPassed) throw forbidden(SKILL_REQUIRED_MESSAGE, ERROR_CODES.skillRequired);
  assertNotOnBreak(breakUntil);
  if (chosen.some((n) => n > competition.totalTickets)) {
    throw badRequest(`Ticket numbers must be between 1 and ${competition.totalTickets}.`);
  }
  const cap = competition.maxTicketsPerUser ?? siteCap;
  if (chosen.length) {
    const same = ownItems.find((i) => sameNumbers(i.selectedNumbers, chosen));
    if (same) return { kind: 'already-held', competition, item: same, numbers: chosen };
    assertUnderCap(cap, ownerTickets, chosen.length);
    if (taken.length) throw numbersTaken(taken);
    return { kind: 'chosen', competition, numbers: chosen };
  }
  const mergeInto = ownItems.find((i) => i.selectedNumbers.length === 0);
  if (mergeInto && mergeInto.quantity + input.quantity > 10) throw badRequest(ITEM_LIMIT_MESSAGE);
  assertUnderCap(cap, ownerTickets, input.quantity);
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
      throw numbersTaken(await takenAmong(trx, competition.id, plan.numbers, now));
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
 * POST /api/cart: holds the chosen numbers (all or none, 409 with the taken ones), or `quantity`
 * random numbers for a Lucky Dip. Same numbers again, or a second Lucky Dip for the same
 * competition, merges into the existing item (at most 10 tickets per item). The skill question
 * is checked once the competition is known to exist (404 first, then 403). Chosen numbers pass
 * the quick refusal (quickRefusal/refuseTaken.ts) before the unit of work opens.
 */
export function addToCart(
  deps: ReservationDeps,
  owner: CartOwner,
  input: AddToCartInput,
  skillPassed: boolean,
  now = Date.now(),
): Promise<AddResult> {
  return withQuickRefusal(deps, owner, input, skillPassed, now, () =>
    holdInUnit(deps, owner, input, skillPassed, now),
  );
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
