import type { Knex } from 'knex';
import { bumpCounterNow, counterBumpForBatch } from '../../db/counters';
import { read, runBatch } from '../../db/statementBatch';
import type { UnitOfWork } from '../platform/unitOfWork';
import { type CartEntry, type CartOwner, cartEntries, cartReads } from './cartQueries';

// Every change to a cart bumps its owner's revision in the same transaction, and every cart the
// server sends carries the revision it was read at. A browser keeps the highest revision it has
// seen, so the answer to its own request and the push that the same change causes elsewhere are
// recognised as one change, and an older cart never overwrites a newer one.

/** The key of a cart: the account's once signed in, else the guest session's. */
export const cartKeyOf = (owner: CartOwner) => (owner.userId ? `u:${owner.userId}` : `g:${owner.guestId}`);

/**
 * Records that the owner's cart changed: bumps its revision and emits `cart.changed` (published
 * after COMMIT). Call it after the change's competition versions are bumped, so every
 * transaction takes those locks in the same order.
 */
export async function cartChanged(uow: UnitOfWork, owner: CartOwner): Promise<number> {
  return recordCartChange(uow, owner, await bumpCartRevisionNow(uow.trx, owner));
}

/** Bumps the owner's cart revision now, inside a transaction; cartChanged() also records the event. */
export const bumpCartRevisionNow = (trx: Knex.Transaction, owner: CartOwner) =>
  bumpCounterNow(trx, 'cart_revisions', 'owner_key', cartKeyOf(owner), 'revision');

/** The same bump as one statement of a batch; pass its result to recordCartChange. */
export const cartRevisionBumpForBatch = (trx: Knex.Transaction, owner: CartOwner) =>
  counterBumpForBatch(trx, 'cart_revisions', 'owner_key', cartKeyOf(owner), 'revision');

/** Emits `cart.changed` (after COMMIT) for a revision bumped by cartRevisionBumpForBatch. */
export function recordCartChange(uow: UnitOfWork, owner: CartOwner, revision: number): number {
  uow.emit('cart.changed', { owner, revision });
  return revision;
}

export interface CartRead {
  entries: CartEntry[];
  revision: number;
}

/** The owner's cart and its revision, read from one consistent snapshot (one batch). */
export function readCart(db: Knex, owner: CartOwner, now = Date.now()): Promise<CartRead> {
  return db.transaction(async (trx) => {
    const [revision, items, competitions, held] = await runBatch(
      trx,
      read(
        trx('cartRevisions')
          .where({ ownerKey: cartKeyOf(owner) })
          .select('revision'),
        (rows: RevisionRow[]) => Number(rows[0]?.revision ?? 0),
      ),
      ...cartReads(trx, owner, now),
    );
    return { entries: cartEntries(items, competitions, held), revision };
  });
}

type RevisionRow = { revision: number };
