import type { Knex } from 'knex';
import { isUniqueViolation } from '../../db/dialect';
import { CartItem, type Competition } from '../../db/models';
import { type Batched, type Results, runBatch, write } from '../../db/statementBatch';
import { RetryTransaction, type UnitOfWork } from '../platform/unitOfWork';
import { type CartOwner, ownerOf } from './cartQueries';
import { cartChanged, cartKeyOf } from './cartRevision';
import { bumpVersionNow } from './competitionVersions';
import { recordTicketEvents, refsOf, ticketEventsInsert } from './history/ticketHistory';
import { liveTakenReader, pickFree } from './numberPicker';

// The writing half of the hold path: rows in `tickets` and `cart_items`, their history, and the
// competition versions. A number is one row in `tickets` while held or sold; UNIQUE
// (competition_id, number) is what makes a double hold impossible, whatever the interleaving.

/** Lucky Dip picks collided with a concurrent hold: the unit of work runs again on a fresh read. */
export class PickCollision extends RetryTransaction {}

export interface TicketChange {
  competitionId: number;
  version: number;
  numbers: number[];
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

/**
 * Inserts the holds optimistically, with their history and then the statements of `after` (the
 * version and revision bumps, last in the transaction) in the same batch. On a unique-key conflict
 * (nothing after the INSERT ran), expired holds among the numbers, which block nobody, are removed
 * and the batch tried once more; a conflict after that means the numbers are really taken.
 * Returns the results of `after`, or null in that case.
 */
export async function tryInsertHolds<const A extends readonly (Batched<unknown> | undefined)[]>(
  trx: Knex.Transaction,
  competition: Competition,
  item: { id: number; expiresAt: number },
  owner: CartOwner,
  numbers: number[],
  now: number,
  ...after: A
): Promise<Results<A> | null> {
  const insert = write(
    trx('tickets').insert(
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
    ),
  );
  // The hold path's only extra write: the numbers' history.
  const history = ticketEventsInsert(
    trx,
    refsOf(competition.id, numbers),
    'held',
    { userId: owner.userId },
    now,
  );
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const [, , ...results] = await runBatch(trx, insert, history, ...after);
      return results as unknown as Results<A>;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (attempt > 0 || !(await clearExpiredHolds(trx, competition.id, numbers, now))) return null;
    }
  }
  return null;
}

/**
 * Lucky Dip numbers, inserted (then `after`, as tryInsertHolds); a collision with a concurrent
 * hold restarts the transaction.
 */
export async function holdRandom<const A extends readonly (Batched<unknown> | undefined)[]>(
  trx: Knex.Transaction,
  competition: Competition,
  item: { id: number; expiresAt: number },
  owner: CartOwner,
  count: number,
  now: number,
  ...after: A
): Promise<{ numbers: number[]; results: Results<A> }> {
  const numbers = await pickFree(liveTakenReader(trx, competition.id, now), competition.totalTickets, count, {
    mostlyFree: competition.ticketsSold < competition.totalTickets / 2,
  });
  const results = await tryInsertHolds(trx, competition, item, owner, numbers, now, ...after);
  if (!results) throw new PickCollision();
  return { numbers, results };
}

export async function createItem(
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

/** Bumps the versions of the competitions whose numbers were released; returns the changes. */
export async function versionReleases(trx: Knex.Transaction, released: Map<number, number[]>) {
  const out: TicketChange[] = [];
  for (const [competitionId, numbers] of released) {
    if (!numbers.length) continue;
    out.push({
      competitionId,
      version: await bumpVersionNow(trx, competitionId),
      numbers: numbers.sort((a, b) => a - b),
    });
  }
  return out;
}

/** Records `tickets.released` for each change, published after COMMIT. */
export function emitReleases(uow: UnitOfWork, releases: TicketChange[]): void {
  for (const r of releases) uow.emit('tickets.released', r);
}

/**
 * Releases every hold of an account (deletion, self-exclusion) in the caller's unit of work: the
 * items go, the versions are bumped and `tickets.released` is recorded for after COMMIT.
 */
export async function releaseAccountHolds(uow: UnitOfWork, userId: number, why: string) {
  const items = (await CartItem.query(uow.trx).where({ userId })) as CartItem[];
  const released = await versionReleases(uow.trx, await deleteItems(uow.trx, items, why));
  emitReleases(uow, released);
  return { items, released };
}

/**
 * Releases every hold on a competition (its cancellation) in the caller's unit of work; each
 * owner's cart changes. A checkout paying for them finds its holds gone and is refunded.
 */
export async function releaseCompetitionHolds(uow: UnitOfWork, competitionId: number, why: string) {
  const items = (await CartItem.query(uow.trx).where({ competitionId })) as CartItem[];
  const released = await versionReleases(uow.trx, await deleteItems(uow.trx, items, why));
  emitReleases(uow, released);
  const owners = new Map(items.map((i) => [cartKeyOf(ownerOf(i)), ownerOf(i)]));
  for (const owner of owners.values()) await cartChanged(uow, owner);
  return released;
}

/** The competition versions a request produced, as its answer reports them to the browser. */
export const versionsOf = (changes: TicketChange[]): Record<string, number> =>
  Object.fromEntries(changes.map((c) => [String(c.competitionId), c.version]));
