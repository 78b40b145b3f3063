import type { CartOwnerRef } from '../../api/platform/events';
import { iso } from '../../contract/dates';
import { ADMINS_ROOM, guestRoom, userRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

const roomsOf = (owner: CartOwnerRef) =>
  owner.userId ? [userRoom(owner.userId)] : [guestRoom(owner.guestId)];

/**
 * The launch queue (docs/draws.md#launch-queue): `queue:admitted` and `queue:position` to each
 * visitor's own rooms (their account's, or their guest session's), `admin:queue` to the admins.
 */
export function projectLaunchQueue({ events, broadcast }: ProjectionDeps): void {
  events.subscribe('queue.admitted', ({ competitionId, owner, expiresAt }) =>
    broadcast(roomsOf(owner), 'queue:admitted', { competitionId, expiresAt: iso(expiresAt) }),
  );
  events.subscribe('queue.positions', ({ competitionId, places }) => {
    for (const { owner, position, ahead, etaSeconds } of places)
      broadcast(roomsOf(owner), 'queue:position', { competitionId, position, ahead, etaSeconds });
  });
  events.subscribe('queue.stats', ({ view }) => broadcast(ADMINS_ROOM, 'admin:queue', view));
}
