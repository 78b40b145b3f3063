import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import { shareRows } from '../../db/locks';
import { CartItem, Competition } from '../../db/models';
import { type Batched, read, runBatch } from '../../db/statementBatch';
import type { CartOwnerRef } from '../platform/events';

export type CartOwner = CartOwnerRef;

// Whose hold is this: a cart item or a held ticket belongs to the signed-in user whose account
// holds it, or, while no account has claimed it, to the guest id of the browser that made it
// (signing in claims it: accounts/auth.ts claimGuestCart). The one rule, in memory and in SQL.

/** The owner a cart item or ticket row records. */
export const ownerOf = (row: { guestId: string; userId: number | null }): CartOwner => ({
  guestId: row.guestId,
  userId: row.userId,
});

/** Whether `owner` owns this cart item or held ticket. */
export const isOwnedBy = (owner: CartOwner, row: { guestId: string | null; userId: number | null }) =>
  (owner.userId !== null && row.userId === owner.userId) ||
  (row.userId === null && row.guestId === owner.guestId);

/** The same rule as a where clause on the rows of `table` (cartItems or tickets). */
export const ownerFilter =
  (owner: CartOwner, table: 'cartItems' | 'tickets') =>
  (w: Knex.QueryBuilder): void => {
    w.where((g) => g.where(`${table}.guestId`, owner.guestId).whereNull(`${table}.userId`));
    if (owner.userId !== null) w.orWhere(`${table}.userId`, owner.userId);
  };

/** Query modifier: cart items belonging to this visitor (their account's, or their guest session's). */
export const ownedBy = (owner: CartOwner) => (q: QueryBuilder<CartItem, CartItem[]>) =>
  q.where(ownerFilter(owner, 'cartItems'));

export interface CartEntry {
  item: CartItem & { competition?: Competition };
  heldNumbers: number[];
}

/** The owner's cart items that have not expired. */
const liveItems = (db: Knex, owner: CartOwner, now: number) =>
  db('cartItems').where(ownerFilter(owner, 'cartItems')).where('expiresAt', '>', now);

/** The owner's live cart items (of one competition, if given), oldest first; for a batch. */
export function liveItemsRead(
  db: Knex,
  owner: CartOwner,
  now: number,
  competitionId?: number,
): Batched<CartItem[]> {
  const q = liveItems(db, owner, now);
  if (competitionId !== undefined) q.where('competitionId', competitionId);
  return read(q.select('*').orderBy('id'), (rows: object[]) => rows.map((r) => CartItem.fromDatabaseJson(r)));
}

/**
 * The visitor's cart as three reads that need no answer from each other, so they go in one batch:
 * the live items, their competitions, and the numbers they hold.
 */
export function cartReads(db: Knex, owner: CartOwner, now: number) {
  const liveIds = (column: string) => liveItems(db, owner, now).select(column);
  return [
    liveItemsRead(db, owner, now),
    read(db('competitions').whereIn('id', liveIds('competitionId')).select('*'), (rows: object[]) =>
      rows.map((r) => Competition.fromDatabaseJson(r)),
    ),
    read(
      db('tickets')
        .whereIn('cartItemId', liveIds('id'))
        .where('status', 'reserved')
        .select('cartItemId', 'number')
        .orderBy('number'),
      (rows: HeldRow[]) => groupHeld(rows),
    ),
  ] as const;
}

/** The cart from cartReads' results. */
export function cartEntries(
  items: CartItem[],
  competitions: Competition[],
  held: Map<number, number[]>,
): CartEntry[] {
  const byId = new Map(competitions.map((c) => [c.id, c]));
  return items.map((item) => ({
    item: Object.assign(item, { competition: byId.get(item.competitionId) }),
    heldNumbers: held.get(item.id) ?? [],
  }));
}

/** The visitor's live cart items with the numbers each holds now. */
export async function listCart(db: Knex, owner: CartOwner, now = Date.now()): Promise<CartEntry[]> {
  return cartEntries(...(await runBatch(db, ...cartReads(db, owner, now))));
}

type HeldRow = { cartItemId: number; number: number };

const groupHeld = (rows: HeldRow[]) => {
  const held = new Map<number, number[]>();
  for (const r of rows) held.set(r.cartItemId, [...(held.get(r.cartItemId) ?? []), r.number]);
  return held;
};

/**
 * The numbers each cart item holds now, ascending, by item id. `locking` makes it a locking read
 * on MySQL/MariaDB, so a hold committed a moment ago is seen inside a transaction.
 */
export async function heldNumbersOf(
  db: Knex,
  items: Array<{ id: number }>,
  { locking = false } = {},
): Promise<Map<number, number[]>> {
  if (!items.length) return new Map<number, number[]>();
  const query = db('tickets')
    .whereIn(
      'cartItemId',
      items.map((i) => i.id),
    )
    .where('status', 'reserved')
    .select('cartItemId', 'number')
    .orderBy('number');
  return groupHeld((await shareRows(db, 'ticket', query, locking)) as HeldRow[]);
}
