import { sessionKeyRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/**
 * Sign-in replaces a session and sign-out ends it: that session's sockets leave every private
 * room at once (they are disconnected) and are told why, so the page re-checks who is signed in
 * and reconnects with its current cookie.
 */
export function projectSessions({ events, broadcast, disconnectRoom }: ProjectionDeps): void {
  events.subscribe('session.ended', ({ sessionKey }) => {
    const room = sessionKeyRoom(sessionKey);
    broadcast(room, 'session:ended');
    disconnectRoom(room);
  });
}
