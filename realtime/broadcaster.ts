import type { Metrics } from '../api/platform/observability/metrics';
import type { ServerToClientEvents } from '../contract/realtime';
import { bufferedPackets } from '../fastpaths/preEncodedFrames';
import { competitionRoom, isCompetitionRoom } from './rooms';
import type { RealtimeServer } from './sockets';
import { type BatchingPolicy, TicketBatcher } from './ticketBatches';

/** Emits one event to rooms, counted once for realtime_events_emitted_total. */
export type Broadcast = <E extends keyof ServerToClientEvents>(
  rooms: string | string[],
  event: E,
  ...args: Parameters<ServerToClientEvents[E]>
) => void;

export interface Broadcaster {
  /** Any event but a ticket change; a competition room's held ticket changes go out first. */
  broadcast: Broadcast;
  /** Ticket changes, alone or as one `tickets:batch` per room per tick under a burst. */
  batcher: TicketBatcher;
}

/**
 * The way out to the rooms. Ticket changes go out alone, or under a burst one `tickets:batch` per
 * room per tick; either way as one room broadcast, framed once for every watcher
 * (fastpaths/preEncodedFrames.ts). Anything else for a competition room first sends the changes
 * held for it, so it never overtakes them (a competition:updated takes the next version).
 */
export function createBroadcaster(
  io: RealtimeServer,
  metrics: Metrics | undefined,
  batching: BatchingPolicy,
): Broadcaster {
  const emit: Broadcast = (rooms, event, ...args) => {
    io.to(rooms).emit(event, ...args);
    metrics?.realtimeEmitted.inc({ event });
  };
  const batcher = new TicketBatcher(
    {
      single: (competitionId, { type, ...change }) =>
        emit(competitionRoom(competitionId), `tickets:${type}`, { competitionId, ...change }),
      batch: (event) => emit(competitionRoom(event.competitionId), 'tickets:batch', event),
    },
    batching,
  );
  const broadcast: Broadcast = (rooms, event, ...args) => {
    for (const room of typeof rooms === 'string' ? [rooms] : rooms)
      if (isCompetitionRoom(room)) batcher.flush(Number(room.slice('competition:'.length)));
    emit(rooms, event, ...args);
  };
  // Shutdown (and any close): held changes go out before the adapter (Redis) closes, and reach
  // the connections before they close.
  const handedOver = trackUnflushed(io);
  const closeIo = io.close.bind(io);
  io.close = async (fn) => {
    batcher.close();
    await handedOver();
    return closeIo(fn);
  };
  return { broadcast, batcher };
}

/** How long a close waits for a connection whose client stopped reading. */
const HAND_OVER_LIMIT_MS = 1000;

/**
 * Socket.IO's close() discards what a connection still holds in engine.io's write buffer (packets
 * queued while an earlier write is in flight). The returned function finds those connections when
 * it is called, from the buffers themselves (nothing is tracked per connection meanwhile: it would
 * cost every watching socket three listeners), and resolves once each has flushed or closed.
 */
function trackUnflushed(io: RealtimeServer): () => Promise<void> {
  return async () => {
    const flushed: Array<Promise<void>> = [];
    for (const { conn } of io.of('/').sockets.values()) {
      if (bufferedPackets(conn) === 0) continue;
      flushed.push(
        new Promise<void>((resolve) => {
          conn.once('flush', () => resolve());
          conn.once('close', () => resolve());
        }),
      );
    }
    if (flushed.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, HAND_OVER_LIMIT_MS);
    });
    await Promise.race([Promise.all(flushed), limit]);
    clearTimeout(timer);
  };
}
