import { create } from 'zustand';
import { getSocket } from './socket';

/**
 * Whether the page's live connection has dropped: it was connected and is not now. Until it is
 * back (and each grid has its fresh snapshot, competitionStore.ts) what the page shows of the
 * numbers may be out of date, and the page says so.
 */
export const useConnection = create<{ dropped: boolean }>(() => ({ dropped: false }));

let following = false;

/** Follows the socket's connects and drops (subscribed before the socket connects). */
export function startConnectionWatch(): void {
  if (following) return;
  following = true;
  const socket = getSocket();
  socket.on('connect', () => useConnection.setState({ dropped: false }));
  socket.on('disconnect', () => useConnection.setState({ dropped: true }));
}
