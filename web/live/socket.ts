import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/realtime';
import { ensureCsrfToken } from '../api/client';

// Transport only: this module knows no store. Each store subscribes to the events it needs
// (auth: session:ended, clock: clock, cart: cart:*, live competitions, draws, the admin feed).

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/**
 * The page's one Socket.IO connection (same origin, default path), created on first use but
 * connected by startRealtime(); emits made before then are buffered and sent on connect.
 */
export function getSocket(): AppSocket {
  if (!socket) {
    // WebSocket first (no sticky sessions needed behind a load balancer); long-polling as the fallback.
    const s: AppSocket = io({
      withCredentials: true,
      transports: ['websocket', 'polling'],
      autoConnect: false,
    });
    // The server drops a socket whose session ended; Socket.IO does not retry that by itself, so
    // reconnect and let the handshake read the current cookie.
    s.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => s.connect(), 250);
    });
    socket = s;
  }
  return socket;
}

/**
 * Connects once the visitor has a session (fetching the CSRF token creates it with a guest id),
 * so the handshake can place the socket in the visitor's private rooms.
 */
export async function startRealtime(): Promise<void> {
  await ensureCsrfToken();
  getSocket().connect();
}
