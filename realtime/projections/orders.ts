import { adminStats, loadOrder } from '../../api/orders/orders';
import { presentAdminOrder, presentOrder } from '../../api/orders/presenter';
import { ADMINS_ROOM, userRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/** A changed order, to its owner's tabs and to the admins. */
export function projectOrders(deps: ProjectionDeps): void {
  toCustomer(deps);
  toAdmins(deps);
}

// The customer's own tabs (a confirmation page waiting for its payment): the order as its
// owner sees it. Creation is the tab's own answer, so only later changes are pushed.
function toCustomer({ db, events, logger, broadcast }: ProjectionDeps): void {
  events.subscribe('order.changed', async ({ orderId, change }) => {
    if (change === 'created') return;
    try {
      const order = await loadOrder(db, orderId);
      if (!order?.userId || events.closed) return;
      broadcast(userRoom(order.userId), 'order:updated', { order: presentOrder(order), change });
    } catch (err) {
      logger.error({ err, orderId }, 'customer order push failed');
    }
  });
}

// Admins watch orders arrive live: the order as the admin screens show it, then fresh counts.
function toAdmins({ db, events, logger, broadcast, mayBeListening }: ProjectionDeps): void {
  events.subscribe('order.changed', async ({ orderId, change }) => {
    try {
      if (!(await mayBeListening([ADMINS_ROOM]))) return;
      const order = await loadOrder(db, orderId, true);
      const stats = order ? await adminStats(db) : undefined;
      if (!order || !stats || events.closed) return;
      broadcast(ADMINS_ROOM, 'admin:order', { order: presentAdminOrder(order), change });
      broadcast(ADMINS_ROOM, 'admin:stats', stats);
    } catch (err) {
      logger.error({ err, orderId }, 'admin order push failed');
    }
  });
}
