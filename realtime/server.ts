import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import * as v from 'valibot';
import { listInstantWins } from '../api/catalogue/instantWins/list';
import { presentPublicInstantWins } from '../api/catalogue/instantWins/presenter';
import { presentCompetition } from '../api/catalogue/presenter';
import { loadDrawRecord } from '../api/draws/drawRecords';
import type {} from '../api/draws/events';
import { type DrawRecord, presentPublicDraw } from '../api/draws/presenter';
import type {} from '../api/orders/instantWins/events';
import { adminStats, loadOrder } from '../api/orders/orders';
import { presentAdminOrder, presentOrder } from '../api/orders/presenter';
import { adminNeedsTwoFactor } from '../api/platform/adminTwoFactor';
import type { Config } from '../api/platform/config';
import type { CartOwnerRef, EventBus } from '../api/platform/events';
import type { Metrics } from '../api/platform/observability/metrics';
import type { SessionStore } from '../api/platform/sessions';
import { presentCart } from '../api/tickets/cartPresenter';
import { readCart } from '../api/tickets/cartRevision';
import { defaultCap } from '../api/tickets/holdChecks';
import { SnapshotCache, watchSnapshot } from '../api/tickets/snapshot';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  WatchRequestSchema,
} from '../contract/realtime';
import type { Competition } from '../db/models';
import { type Broadcast, startAdminLive } from './adminLive';
import { type OriginPolicy, originJudge } from './origin';
import { sharePreEncodedFramesWhenSafe } from './preEncodedFrames';
import { broadcastOneRoomDirectly } from './roomBroadcast';
import {
  ADMINS_ROOM,
  competitionRoom,
  guestRoom,
  isCompetitionRoom,
  sessionKeyRoom,
  userRoom,
} from './rooms';
import { sessionFromCookieHeader } from './session';
import { DEFAULT_SOCKET_LIMITS, guardSocket, type SocketLimits } from './socketLimits';
import { releaseHandshake } from './socketMemory';
import { type BatchingPolicy, DEFAULT_BATCHING, TicketBatcher } from './ticketBatches';

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
  db: Knex;
  /** Whose pages may open a socket with the visitor's session (PUBLIC_URL, ALLOWED_ORIGINS). */
  origins: OriginPolicy;
  /** Per-socket limits (docs/security.md#socket-limits); defaults when omitted. */
  socketLimits?: SocketLimits;
  /** ADMIN_REQUIRE_2FA: admins without two-factor sign-in are kept out of the admins room. */
  adminPolicy?: Pick<Config, 'adminRequire2fa' | 'env' | 'adminUsername'>;
  /** socketio_connected_sockets and realtime_events_emitted_total (docs/operations.md#metrics). */
  metrics?: Metrics;
  /** When ticket changes are coalesced into `tickets:batch` (realtime/ticketBatches.ts). */
  batching?: BatchingPolicy;
}

export const FOREIGN_ORIGIN_MESSAGE = "Live updates are only available on this site's own pages.";

/**
 * WebSocket compression for large messages only: a 100,000-number snapshot (two base64 bitmaps,
 * ~33 KB of JSON) goes out in a few KB, while ticket events (~100 bytes) stay uncompressed, so
 * fan-out costs no CPU for it. A small window keeps the per-socket zlib memory small; it is only
 * allocated for sockets that ever receive a large message.
 */
export const SNAPSHOT_COMPRESSION = {
  threshold: 2048,
  serverMaxWindowBits: 10,
  serverNoContextTakeover: true,
  clientNoContextTakeover: true,
  zlibDeflateOptions: { level: 6, memLevel: 4 },
} as const;

/** Socket.IO on the site's own HTTP server (same origin, default path /socket.io). */
export function attachRealtime(
  httpServer: HttpServer,
  {
    sessionStore,
    keys,
    logger,
    events,
    db,
    origins,
    socketLimits = DEFAULT_SOCKET_LIMITS,
    adminPolicy = { adminRequire2fa: false, env: 'development', adminUsername: '' },
    metrics,
    batching = DEFAULT_BATCHING,
  }: RealtimeOptions,
): RealtimeServer {
  sharePreEncodedFramesWhenSafe();
  broadcastOneRoomDirectly();
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    perMessageDeflate: SNAPSHOT_COMPRESSION,
    // A client message larger than this closes its connection before it is parsed.
    maxHttpBufferSize: socketLimits.maxPayloadBytes,
  });
  metrics?.countSocketsWith(() => io.of('/').sockets.size);
  const emit: Broadcast = (rooms, event, ...args) => {
    io.to(rooms).emit(event, ...args);
    metrics?.realtimeEmitted.inc({ event });
  };
  // Ticket changes go out alone, or under a burst one `tickets:batch` per room per tick; either way
  // as one room broadcast, framed once for every watcher (preEncodedFrames.ts).
  const batcher = new TicketBatcher(
    {
      single: (competitionId, { type, ...change }) =>
        emit(competitionRoom(competitionId), `tickets:${type}`, { competitionId, ...change }),
      batch: (event) => emit(competitionRoom(event.competitionId), 'tickets:batch', event),
    },
    batching,
  );
  // Anything else for a competition room first sends the changes held for it, so it never
  // overtakes them (a competition:updated takes the next version).
  const broadcast: Broadcast = (rooms, event, ...args) => {
    for (const room of typeof rooms === 'string' ? [rooms] : rooms)
      if (isCompetitionRoom(room)) batcher.flush(Number(room.slice('competition:'.length)));
    emit(rooms, event, ...args);
  };
  // Shutdown (and any close): held changes go out before the adapter (Redis) closes.
  const closeIo = io.close.bind(io);
  io.close = (fn) => {
    batcher.close();
    return closeIo(fn);
  };
  // Admins listening here, or perhaps on another process (the broadcast reaches them through Redis).
  const adminsListening = async () =>
    (io.sockets.adapter.rooms.get(ADMINS_ROOM)?.size ?? 0) > 0 ||
    (await io.sockets.adapter.serverCount()) > 1;
  // Every watcher of one competition version shares one read of its bitmaps.
  const snapshots = new SnapshotCache(db);

  const judgeOrigin = originJudge(origins);
  io.use(async (socket, next) => {
    socket.data.guestId = null;
    socket.data.userId = null;
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
        // ends the session (session.ended below), so a demoted admin's sockets leave the room.
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

  io.on('connection', (socket) => {
    releaseHandshake(socket);
    // Clients keep (serverTime - their clock) so countdowns follow the server clock.
    socket.emit('clock', { serverTime: new Date().toISOString() });
    metrics?.realtimeEmitted.inc({ event: 'clock' });
    const guard = guardSocket(socket, socketLimits, (code) =>
      logger.warn(
        { code, userId: socket.data.userId, address: socket.handshake.address },
        'socket disconnected for going over its limits',
      ),
    );

    socket.on('competition:watch', async (payload, ack) => {
      if (typeof ack !== 'function') return;
      const parsed = v.safeParse(WatchRequestSchema, payload);
      if (!parsed.success)
        return ack({ ok: false, message: 'competitionId must be a positive whole number' });
      const { competitionId } = parsed.output;
      // Join before reading, so no change between the snapshot and the join can be missed;
      // the client ignores events at or below the snapshot's version.
      const room = competitionRoom(competitionId);
      const refused = guard.refuseRoom(room);
      if (refused) return ack({ ok: false, message: refused });
      await socket.join(room);
      try {
        const owner = socket.data.guestId
          ? { guestId: socket.data.guestId, userId: socket.data.userId }
          : null;
        const snapshot = await watchSnapshot(db, snapshots, competitionId, owner);
        if (!snapshot) {
          await socket.leave(room);
          return ack({ ok: false, message: 'Competition not found' });
        }
        ack({ ok: true, snapshot });
      } catch (err) {
        logger.error({ err, competitionId }, 'snapshot failed');
        await socket.leave(room);
        ack({ ok: false, message: 'Could not load the competition. Please try again.' });
      }
    });

    socket.on('competition:unwatch', (payload) => {
      const parsed = v.safeParse(WatchRequestSchema, payload);
      if (parsed.success) void socket.leave(competitionRoom(parsed.output.competitionId));
    });
  });

  // Domain events (published after COMMIT) become socket events on the right rooms.
  events.subscribe('tickets.reserved', ({ competitionId, version, numbers }) =>
    batcher.push(competitionId, { type: 'reserved', version, numbers }),
  );
  events.subscribe('tickets.released', ({ competitionId, version, numbers }) =>
    batcher.push(competitionId, { type: 'released', version, numbers }),
  );
  events.subscribe('tickets.purchased', ({ competitionId, version, numbers, ticketsSold }) =>
    batcher.push(competitionId, { type: 'purchased', version, numbers, ticketsSold }),
  );
  // Events carry rows; they are presented here, as routes present what services return.
  const emitCompetition = async (
    competition: Competition,
    version: number,
    draw: DrawRecord | undefined,
    deleted = false,
  ) => {
    const cap = await defaultCap(db);
    if (events.closed) return;
    const instantRows = deleted ? [] : await listInstantWins(db, competition.id);
    if (events.closed) return;
    const fields = presentCompetition(
      competition,
      cap,
      draw ? presentPublicDraw(draw) : null,
      presentPublicInstantWins(competition, instantRows, Date.now()),
    );
    const gone = deleted ? { status: 'archived' as const, deleted: true } : {};
    broadcast(competitionRoom(competition.id), 'competition:updated', {
      ...fields,
      ...gone,
      competitionId: competition.id,
      version,
    });
  };
  events.subscribe('competition.updated', async ({ competition, version, deleted }) => {
    try {
      // Only a drawn competition needs its result, which went out just before.
      const draw = competition.drawnAt && !deleted ? await loadDrawRecord(db, competition.id) : undefined;
      if (!events.closed) await emitCompetition(competition, version, draw, deleted);
    } catch (err) {
      logger.error({ err, competitionId: competition.id }, 'competition push failed');
    }
  });

  events.subscribe('draw.started', (e) => broadcast(competitionRoom(e.competitionId), 'draw:started', e));
  events.subscribe('draw.result', ({ record }) => {
    const { version, winningNumber, winnerName, seed, entriesHash, prizes } = presentPublicDraw(record);
    broadcast(competitionRoom(record.competitionId), 'draw:result', {
      competitionId: record.competitionId,
      winningNumber,
      winnerName,
      seed,
      entriesHash,
      version,
      beaconRound: record.beaconRound === null ? null : Number(record.beaconRound),
      beaconRandomness: record.beaconRandomness,
      prizes,
    });
  });

  // An instant win: everyone watching and the admins see the list update; the winner is told.
  events.subscribe('instant-win.claimed', (e) => {
    const { competitionId, number, prizeTitle, winnerDisplayName } = e;
    const claimed = { competitionId, number, prizeTitle, winnerDisplayName };
    broadcast([competitionRoom(competitionId), ADMINS_ROOM], 'instant-win:claimed', claimed);
    if (e.winnerUserId)
      broadcast(userRoom(e.winnerUserId), 'instant:won', { competitionId, number, prize: e.prize });
  });

  const ownerRooms = (owner: CartOwnerRef) =>
    owner.userId ? [userRoom(owner.userId), guestRoom(owner.guestId)] : [guestRoom(owner.guestId)];

  events.subscribe('cart.changed', async ({ owner }) => {
    try {
      // Most carts change over plain HTTP with no socket listening: skip the query then. With
      // several nodes (Redis) the owner's tab may be on another node, so always push.
      const rooms = ownerRooms(owner);
      const listeningHere = rooms.some((room) => (io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0);
      if (!listeningHere && (await io.sockets.adapter.serverCount()) <= 1) return;
      const { entries, revision } = await readCart(db, owner);
      if (events.closed) return;
      broadcast(rooms, 'cart:updated', { items: presentCart(entries), revision });
    } catch (err) {
      logger.error({ err }, 'cart push failed');
    }
  });
  events.subscribe('cart.expired', ({ owner, itemIds }) =>
    broadcast(ownerRooms(owner), 'cart:expired', { itemIds }),
  );

  // The customer's own tabs (a confirmation page waiting for its payment): the order as its
  // owner sees it. Creation is the tab's own answer, so only later changes are pushed.
  events.subscribe('order.changed', async ({ orderId, change }) => {
    if (change === 'created') return;
    try {
      const order = await loadOrder(db, orderId);
      if (!order?.userId || events.closed) return;
      broadcast(userRoom(order.userId), 'order:updated', { order: presentOrder(order), change });
    } catch (err) {
      logger.error({ err, orderId }, 'customer order push failed');
    }
  });

  // Admins watch orders arrive live: the order as the admin screens show it, then fresh counts.
  events.subscribe('order.changed', async ({ orderId, change }) => {
    try {
      if (!(await adminsListening())) return;
      const order = await loadOrder(db, orderId, true);
      const stats = order ? await adminStats(db) : undefined;
      if (!order || !stats || events.closed) return;
      broadcast(ADMINS_ROOM, 'admin:order', { order: presentAdminOrder(order), change });
      broadcast(ADMINS_ROOM, 'admin:stats', stats);
    } catch (err) {
      logger.error({ err, orderId }, 'admin order push failed');
    }
  });

  // Sign-in replaces a session and sign-out ends it: that session's sockets leave every private
  // room at once (they are disconnected) and are told why, so the page re-checks who is signed in
  // and reconnects with its current cookie.
  startAdminLive(
    { db, events, logger },
    {
      broadcast,
      count: () => io.of('/').sockets.size,
      adminsListening,
      onConnectionsChange: (callback) =>
        io.on('connection', (socket) => {
          callback();
          socket.on('disconnect', callback);
        }),
    },
  );

  events.subscribe('session.ended', ({ sessionKey }) => {
    const room = sessionKeyRoom(sessionKey);
    broadcast(room, 'session:ended');
    io.in(room).disconnectSockets(true);
  });

  return io;
}

/**
 * With REDIS_URL, room broadcasts go through Redis pub/sub so sockets connected to any process
 * receive them, on channels under the site's prefix (config.redisPrefix). Returns a function that
 * closes the Redis connections.
 */
export async function attachRedisAdapter(
  io: RealtimeServer,
  redisUrl: string,
  prefix: string,
): Promise<() => Promise<void>> {
  const pub = createClient({ url: redisUrl });
  const sub = pub.duplicate();
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub, { key: `${prefix}:socket.io` }));
  return async () => {
    // close() lets queued commands finish: the adapter's unsubscribes are fired without being
    // awaited when Socket.IO closes, and quit() would reject them (an unhandled rejection).
    await Promise.allSettled([pub.close(), sub.close()]);
  };
}
