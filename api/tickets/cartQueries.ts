import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import { CartItem, type Competition } from '../../db/models';
import type { CartOwnerRef } from '../platform/events';

export type CartOwner = CartOwnerRef;

/** Query modifier: cart items belonging to this visitor (their account's, or their guest session's). */
export const ownedBy = (owner: CartOwner) => (q: QueryBuilder<CartItem, CartItem[]>) =>
  q.where((w) => {
    w.where((g) => g.where('cartItems.sessionId', owner.guestId).whereNull('cartItems.userId'));
    if (owner.userId) w.orWhere('cartItems.userId', owner.userId);
  });

/** Whose cart an item (and so its held numbers) is in: the account's, else the guest session's. */
export const ownerOfItem = (item: Pick<CartItem, 'sessionId' | 'userId'>): CartOwner => ({
  guestId: item.sessionId,
  userId: item.userId,
});

export interface CartEntry {
  item: CartItem & { competition?: Competition };
  heldNumbers: number[];
}

/** The visitor's live cart items with the numbers each holds now. */
export async function listCart(db: Knex, owner: CartOwner, now = Date.now()): Promise<CartEntry[]> {
  const items = (await CartItem.query(db)
    .modify(ownedBy(owner))
    .where('expiresAt', '>', now)
    .withGraphFetched('competition')
    .orderBy('id')) as Array<CartItem & { competition?: Competition }>;
  const held = new Map<number, number[]>();
  if (items.length) {
    const rows: Array<{ cartItemId: number; number: number }> = await db('tickets')
      .whereIn(
        'cartItemId',
        items.map((i) => i.id),
      )
      .where('status', 'reserved')
      .select('cartItemId', 'number')
      .orderBy('number');
    for (const r of rows) held.set(r.cartItemId, [...(held.get(r.cartItemId) ?? []), r.number]);
  }
  return items.map((item) => ({ item, heldNumbers: held.get(item.id) ?? [] }));
}
