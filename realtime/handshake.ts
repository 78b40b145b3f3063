import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { adminNeedsTwoFactor } from '../api/platform/adminTwoFactor';
import type { Config } from '../api/platform/config';
import type { SessionStore } from '../api/platform/sessions';
import { type OriginPolicy, originJudge } from './origin';
import { ADMINS_ROOM, guestRoom, sessionKeyRoom, userRoom } from './rooms';
import { sessionFromCookieHeader } from './session';
import type { RealtimeServer } from './sockets';

export const FOREIGN_ORIGIN_MESSAGE = "Live updates are only available on this site's own pages.";

export interface HandshakeDeps {
  sessionStore: SessionStore;
  keys: string[];
  logger: Logger;
  db: Knex;
  origins: OriginPolicy;
  adminPolicy: Pick<Config, 'adminRequire2fa' | 'env' | 'adminUsername'>;
}

/**
 * Every socket's handshake: its origin is checked, its owner read from the session cookie, and it
 * joins its private rooms (session, guest, user, and admins for an admin) before it connects.
 */
export function authenticateSockets(
  io: RealtimeServer,
  { sessionStore, keys, logger, db, origins, adminPolicy }: HandshakeDeps,
): void {
  const judgeOrigin = originJudge(origins);
  io.use(async (socket, next) => {
    socket.data.guestId = null;
    socket.data.userId = null;
    socket.data.bucketFullAt = 0;
    // WebSockets are not bound by CORS: a page on any site can open one to us, and its browser
    // attaches the visitor's cookie. Only the site's own pages may use that cookie.
    const origin = judgeOrigin(socket.request.headers);
    if (origin === 'foreign') {
      logger.info({ origin: socket.request.headers.origin }, 'socket from a foreign origin refused');
      return next(new Error(FOREIGN_ORIGIN_MESSAGE));
    }
    // No browser origin (load tools, servers): a guest with no session, whatever cookie it sends.
    if (origin === 'anonymous') return next();
    try {
      const session = await sessionFromCookieHeader(socket.request.headers.cookie, keys, sessionStore);
      socket.data.guestId = session?.data.guestId ?? null;
      socket.data.userId = session?.data.userId ?? null;
      if (session) socket.join(sessionKeyRoom(session.key));
      if (socket.data.guestId) socket.join(guestRoom(socket.data.guestId));
      if (socket.data.userId) {
        socket.join(userRoom(socket.data.userId));
        // The role is read from the database, never from the client. A role change or sign-out
        // ends the session (projections/sessions.ts), so a demoted admin's sockets leave the room.
        // Turning two-factor sign-in on ends the session's sockets, which then reconnect into the room.
        const user = await db('users')
          .where({ id: socket.data.userId })
          .whereNull('deletedAt')
          .first('id', 'role', 'username');
        if (user?.role === 'admin' && !(await adminNeedsTwoFactor(db, adminPolicy, user)))
          socket.join(ADMINS_ROOM);
      }
      next();
    } catch (err) {
      logger.error({ err }, 'socket handshake failed');
      next(new Error('Session lookup failed'));
    }
  });
}
