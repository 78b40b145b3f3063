import type { Knex } from 'knex';
import type { Logger } from 'pino';
import * as v from 'valibot';
import type { Metrics } from '../api/platform/observability/metrics';
import { SnapshotCache, watchSnapshot } from '../api/tickets/snapshot';
import { type WatchAck, WatchRequestSchema } from '../contract/realtime';
import type { ClientEventHandler } from './clientEvents';
import { competitionRoom } from './rooms';
import type { SocketLimiter } from './socketLimits';
import { releaseHandshake } from './socketMemory';
import type { RealtimeServer, RealtimeSocket } from './sockets';

export interface WatchDeps {
  db: Knex;
  logger: Logger;
  limiter: SocketLimiter;
  metrics: Metrics | undefined;
}

/**
 * Each connected socket: it lets go of its upgrade request and gets the server's clock. Returns
 * the handlers of `competition:watch` (join the room, answer with a snapshot) and
 * `competition:unwatch` (leave it), shared by every socket (realtime/clientEvents.ts).
 */
export function serveWatches(
  io: RealtimeServer,
  { db, logger, limiter, metrics }: WatchDeps,
): Record<'competition:watch' | 'competition:unwatch', ClientEventHandler> {
  // Every watcher of one competition version shares one read of its bitmaps.
  const snapshots = new SnapshotCache(db);
  io.on('connection', (socket) => {
    releaseHandshake(socket);
    // Clients keep (serverTime - their clock) so countdowns follow the server clock.
    socket.emit('clock', { serverTime: new Date().toISOString() });
    metrics?.realtimeEmitted.inc({ event: 'clock' });
  });
  return {
    'competition:watch': (socket, payload, ack) =>
      typeof ack === 'function'
        ? watch({ db, logger, snapshots, limiter }, socket, payload, ack as (answer: WatchAck) => void)
        : undefined,
    'competition:unwatch': (socket, payload) => {
      const parsed = v.safeParse(WatchRequestSchema, payload);
      if (parsed.success) void socket.leave(competitionRoom(parsed.output.competitionId));
    },
  };
}

async function watch(
  {
    db,
    logger,
    snapshots,
    limiter,
  }: { db: Knex; logger: Logger; snapshots: SnapshotCache; limiter: SocketLimiter },
  socket: RealtimeSocket,
  payload: unknown,
  ack: (answer: WatchAck) => void,
): Promise<void> {
  const parsed = v.safeParse(WatchRequestSchema, payload);
  if (!parsed.success) return ack({ ok: false, message: 'competitionId must be a positive whole number' });
  const { competitionId } = parsed.output;
  // Join before reading, so no change between the snapshot and the join can be missed;
  // the client ignores events at or below the snapshot's version.
  const room = competitionRoom(competitionId);
  const refused = limiter.refuseRoom(socket, room);
  if (refused) return ack({ ok: false, message: refused });
  await socket.join(room);
  try {
    const owner = socket.data.guestId ? { guestId: socket.data.guestId, userId: socket.data.userId } : null;
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
}
