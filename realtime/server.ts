import type { Server as HttpServer } from 'node:http';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { EventBus } from '../api/events';
import type { SessionStore } from '../api/middleware/session';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/realtime';
import { guestRoom, sessionKeyRoom, userRoom } from './rooms';
import { sessionFromCookieHeader } from './session';

/** Who a socket belongs to, read once from the session at handshake. */
export interface SocketData {
  guestId: string | null;
  userId: number | null;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export interface RealtimeOptions {
  sessionStore: SessionStore;
  keys: string[];
  logger: Logger;
  events: EventBus;
}

/** Socket.IO on the site's own HTTP server (same origin, default path /socket.io). */
export function attachRealtime(
  httpServer: HttpServer,
  { sessionStore, keys, logger, events }: RealtimeOptions,
): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, { serveClient: false });

  io.use(async (socket, next) => {
    try {
      const session = await sessionFromCookieHeader(socket.request.headers.cookie, keys, sessionStore);
      socket.data.guestId = session?.data.guestId ?? null;
      socket.data.userId = session?.data.userId ?? null;
      if (session) socket.join(sessionKeyRoom(session.key));
      if (socket.data.guestId) socket.join(guestRoom(socket.data.guestId));
      if (socket.data.userId) socket.join(userRoom(socket.data.userId));
      next();
    } catch (err) {
      logger.error({ err }, 'socket handshake failed');
      next(new Error('Session lookup failed'));
    }
  });

  io.on('connection', (socket) => {
    // Clients keep (serverTime - their clock) so countdowns follow the server clock.
    socket.emit('clock', { serverTime: new Date().toISOString() });
  });

  // Sign-in replaces a session and sign-out ends it: that session's sockets leave every private
  // room at once (they are disconnected) and are told why, so the page re-checks who is signed in
  // and reconnects with its current cookie.
  events.subscribe('session.ended', ({ sessionKey }) => {
    const room = sessionKeyRoom(sessionKey);
    io.to(room).emit('session:ended');
    io.in(room).disconnectSockets(true);
  });

  return io;
}
