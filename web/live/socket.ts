import type { Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../contract/realtime';
import { ensureCsrfToken } from '../api/client';

// Transport only: this module knows no store. Each store subscribes to the events it needs
// (auth: session:ended, clock: clock, cart: cart:*, live competitions, draws, the admin feed).

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** What the stores use of the page's socket. */
export type LiveSocket = Pick<AppSocket, 'on' | 'off' | 'emit' | 'connected'>;

let socket: AppSocket | undefined;
/** Calls made before socket.io-client has loaded, replayed in order on the real socket. */
const pending: Array<(s: AppSocket) => void> = [];

const later =
  (method: 'on' | 'off' | 'emit') =>
  (...args: unknown[]) => {
    const call = (s: AppSocket) => (s[method] as (...a: unknown[]) => unknown)(...args);
    if (socket) call(socket);
    else pending.push(call);
    return handle;
  };

const handle = {
  on: later('on'),
  off: later('off'),
  emit: later('emit'),
  get connected() {
    return socket?.connected ?? false;
  },
} as unknown as LiveSocket;

/**
 * The page's one Socket.IO connection (same origin, default path). Listeners and emits may be
 * made at once: until startRealtime() has loaded socket.io-client they wait, and emits made
 * before the connection are buffered and sent on connect.
 */
export function getSocket(): LiveSocket {
  return handle;
}

let started: Promise<void> | undefined;
/** Set while reconnectSocket() waits for the new session, so nothing connects with the old one. */
let rejoining: Promise<void> | undefined;

/**
 * Connects once the visitor has a session (fetching the CSRF token creates it with a guest id),
 * so the handshake can place the socket in the visitor's private rooms. socket.io-client (about
 * 13 KB gzip) loads meanwhile, as a chunk of its own: nothing in the first paint needs it.
 */
export function startRealtime(): Promise<void> {
  started ??= Promise.all([import('socket.io-client'), ensureCsrfToken()]).then(([{ io }]) => {
    // WebSocket first (no sticky sessions needed behind a load balancer); long-polling as the fallback.
    const s: AppSocket = io({
      withCredentials: true,
      transports: ['websocket', 'polling'],
      autoConnect: false,
    });
    // The server drops a socket whose session ended; Socket.IO does not retry that by itself, so
    // reconnect and let the handshake read the current cookie.
    s.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => !s.active && !rejoining && s.connect(), 250);
    });
    socket = s;
    for (const call of pending.splice(0)) call(s);
    s.connect();
  });
  return started;
}

/**
 * This tab's session changed (signed in, registered, signed out): connect again, so that the
 * handshake reads the new session cookie. The server drops the old session's sockets by itself,
 * but that drop can arrive before the answer that sets the new cookie; a socket that reconnected
 * with the old cookie would then stay a guest's, with no account rooms and none of its numbers.
 */
export function reconnectSocket(): void {
  const s = socket;
  if (!s) return; // not connected yet: its first handshake will read the current cookie
  s.disconnect();
  // Signed out, the visitor has no session until the token is fetched again (that creates one,
  // with a guest id): connect once it exists, as startRealtime does. The latest call connects.
  const waiting: Promise<void> = ensureCsrfToken().then(() => {
    if (rejoining !== waiting) return;
    rejoining = undefined;
    s.connect();
  });
  rejoining = waiting;
}
