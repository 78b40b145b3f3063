import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import { Server } from 'socket.io';
import type { Config } from '../api/platform/config';
import type { EventBus } from '../api/platform/events';
import type { Metrics } from '../api/platform/observability/metrics';
import type { SessionStore } from '../api/platform/sessions';
import { switchRealtimeFastPaths } from '../fastpaths/realtime';
import { createBroadcaster } from './broadcaster';
import { serveClientEvents } from './clientEvents';
import { serveDrawRoomViewers } from './drawRoomViewers';
import { authenticateSockets } from './handshake';
import type { OriginPolicy } from './origin';
import { startProjections } from './projections';
import { DEFAULT_SOCKET_LIMITS, SocketLimiter, type SocketLimits } from './socketLimits';
import type { RealtimeServer } from './sockets';
import { type BatchingPolicy, DEFAULT_BATCHING, type TicketBatcher } from './ticketBatches';
import { serveWatches } from './watch';

export type { RealtimeServer, SocketData } from './sockets';

export interface RealtimeOptions {
  sessionStore: SessionStore;
  keys: string[];
  logger: Logger;
  events: EventBus;
  db: Knex;
  /** Whose pages may open a socket with the visitor's session (PUBLIC_URL, ALLOWED_ORIGINS). */
  origins: OriginPolicy;
  /** FAST_PATHS: the fan-out fast paths over engine.io, socket.io-adapter and ws (fastpaths/README.md). */
  fastPaths: boolean;
  /** Per-socket limits (docs/security.md#socket-limits); defaults when omitted. */
  socketLimits?: SocketLimits;
  /** ADMIN_REQUIRE_2FA: admins without two-factor sign-in are kept out of the admins room. */
  adminPolicy?: Pick<Config, 'adminRequire2fa' | 'env' | 'adminUsername'>;
  /** socketio_connected_sockets and realtime_events_emitted_total (docs/operations.md#metrics). */
  metrics?: Metrics;
  /** When ticket changes are coalesced into `tickets:batch` (realtime/ticketBatches.ts). */
  batching?: BatchingPolicy;
}

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

/**
 * ws copies the compression options for every connection that negotiates compression
 * (`{ ...options, isServer, maxPayload }` in its server's completeUpgrade). V8 (11.3, Node 20)
 * gives each copy of an ordinary object its own hidden class, about 0.7 KB of heap per watching
 * socket, and every copy of a frozen object the same one (docs/performance.md#memory-per-socket).
 * The object is engine.io's copy of SNAPSHOT_COMPRESSION, which ws is given and only reads.
 */
function freezeCompressionOptions(io: RealtimeServer): void {
  const options = io.engine.opts.perMessageDeflate;
  if (typeof options === 'object') Object.freeze(options);
}

/**
 * Socket.IO on the site's own HTTP server (same origin, default path /socket.io): the handshake,
 * `competition:watch`, and the domain events (published after COMMIT) as socket events.
 */
export function attachRealtime(
  httpServer: HttpServer,
  options: RealtimeOptions,
): { io: RealtimeServer; batcher: TicketBatcher } {
  const {
    logger,
    events,
    db,
    socketLimits = DEFAULT_SOCKET_LIMITS,
    adminPolicy = { adminRequire2fa: false, env: 'development', adminUsername: '' },
    metrics,
  } = options;
  switchRealtimeFastPaths(options.fastPaths);
  const io: RealtimeServer = new Server(httpServer, {
    serveClient: false,
    perMessageDeflate: SNAPSHOT_COMPRESSION,
    // A client message larger than this closes its connection before it is parsed.
    maxHttpBufferSize: socketLimits.maxPayloadBytes,
  });
  freezeCompressionOptions(io);
  metrics?.countSocketsWith(() => io.of('/').sockets.size);
  const broadcaster = createBroadcaster(io, metrics, options.batching ?? DEFAULT_BATCHING);
  authenticateSockets(io, { ...options, adminPolicy });
  const limiter = new SocketLimiter(socketLimits, (socket, code) =>
    logger.warn(
      { code, userId: socket.data.userId, address: socket.handshake.address },
      'socket disconnected for going over its limits',
    ),
  );
  const watches = serveWatches(io, { db, logger, limiter, metrics });
  const drawRooms = serveDrawRoomViewers(io);
  serveClientEvents(io, { ...watches, ...drawRooms.handlers }, { limiter, logger });
  startProjections(io, { db, events, logger }, broadcaster);
  return { io, batcher: broadcaster.batcher };
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
