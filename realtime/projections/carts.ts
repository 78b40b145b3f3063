import type { CartOwnerRef } from '../../api/platform/events';
import { presentCart } from '../../api/tickets/cartPresenter';
import { readCart } from '../../api/tickets/cartRevision';
import { guestRoom, userRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

const ownerRooms = (owner: CartOwnerRef) =>
  owner.userId ? [userRoom(owner.userId), guestRoom(owner.guestId)] : [guestRoom(owner.guestId)];

/** The owner's tabs see their cart change (`cart:updated`) and their expired holds (`cart:expired`). */
export function projectCarts({ db, events, logger, broadcast, mayBeListening }: ProjectionDeps): void {
  events.subscribe('cart.changed', async ({ owner }) => {
    try {
      // Most carts change over plain HTTP with no socket listening: skip the query then. With
      // several nodes (Redis) the owner's tab may be on another node, so always push.
      const rooms = ownerRooms(owner);
      if (!(await mayBeListening(rooms))) return;
      const { entries, revision } = await readCart(db, owner);
      if (events.closed) return;
      broadcast(rooms, 'cart:updated', { items: presentCart(entries), revision });
    } catch (err) {
      logger.error({ err }, 'cart push failed');
    }
  });
  events.subscribe('cart.expired', ({ owner, itemIds }) =>
    broadcast(ownerRooms(owner), 'cart:expired', { itemIds }),
  );
}
