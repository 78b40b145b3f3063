import type { Server, Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../contract/realtime';
import type { LimitState } from './socketLimits';

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
