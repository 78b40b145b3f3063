import { guestRoom, userRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/** `numbers:freed` to the asking visitor's own rooms: their account's, or their guest session's. */
export function projectNumberAlerts({ events, broadcast }: ProjectionDeps): void {
  events.subscribe('numbers.freed', ({ competitionId, owner, numbers }) =>
    broadcast(owner.userId ? [userRoom(owner.userId)] : [guestRoom(owner.guestId)], 'numbers:freed', {
      competitionId,
      numbers,
    }),
  );
}
