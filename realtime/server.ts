import type { Server as HttpServer } from 'node:http';
import type { Logger } from 'pino';
import { Server } from 'socket.io';
import type { SessionStore } from '../api/middleware/session';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/realtime';
import { sessionFromCookieHeader } from './session';

/** Who a socket belongs to, read once from the session at handshake. */
export interface SocketData {
  guestId: string | null;
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
}

/** Socket.IO on the site's own HTTP server (same origin, default path /socket.io). */
export function attachRealtime(
  httpServer: HttpServer,
  { sessionStore, keys, logger }: RealtimeOptions,
): RealtimeServer {
  const io: RealtimeServer = new Server(httpServer, { serveClient: false });

  io.use(async (socket, next) => {
    try {
      const session = await sessionFromCookieHeader(socket.request.headers.cookie, keys, sessionStore);
      socket.data.guestId = session?.guestId ?? null;
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

  return io;
}
