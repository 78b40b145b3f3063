import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/realtime';
import { ensureCsrfToken } from '../api/client';
import { useAuth } from '../stores/auth';
import { useClock } from './clock';

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
    s.on('clock', ({ serverTime }) => useClock.getState().setServerTime(serverTime));
    // This browser signed in or out (maybe in another tab): check who we are now.
    s.on('session:ended', () => void useAuth.getState().refresh());
    // The server drops a socket whose session ended; reconnect so the handshake reads the new cookie.
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
