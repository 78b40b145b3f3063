import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/realtime';

/** What a socket's limits remember (socketLimits.ts), kept in its `data` so they cost no objects. */
export interface LimitState {
  /** When the event bucket is full again (ms); before then it holds fewer than `eventBurst` events. */
  bucketFullAt: number;
  /** Refusals within STRIKE_WINDOW_MS, created at the first refusal. */
  strikeTimes?: number[];
}

/**
 * Who a socket belongs to, read once from the session at handshake, and what its limits remember
 * (socketLimits.ts): plain fields, so a socket carries no objects of the application's own.
 */
export interface SocketData extends LimitState {
  guestId: string | null;
  userId: number | null;
}

/** Between app processes (Redis adapter): each process's viewers of each draw room. */
export interface InterServerEvents {
  'draw-room:count': (report: { process: string; competitionId: number; viewers: number }) => void;
}

export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

/** One connected socket of that server. */
export type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
