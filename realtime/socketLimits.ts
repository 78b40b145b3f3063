import { SOCKET_ERROR_CODES, type SocketErrorCode } from '../contract/realtime';
import { isCompetitionRoom } from './rooms';
import type { LimitState, RealtimeSocket } from './sockets';

export type { LimitState } from './sockets';

// Per-socket limits (docs/security.md#socket-limits): one connection must not be able to keep the
// process busy for everyone else. They live with the socket and die with it, so there are no
// keys, stores or timers; RATE_LIMITS=off does not touch them (a load tool's sockets each send
// a handful of events, far inside them).

export interface SocketLimits {
  /** Events a socket may send at once (the bucket's size). */
  eventBurst: number;
  /** Events per second it may keep sending (the bucket's refill). */
  eventsPerSecond: number;
  /** Competition rooms one socket may be in at once. */
  maxRooms: number;
  /** Largest message accepted (Socket.IO maxHttpBufferSize); a larger one closes the connection. */
  maxPayloadBytes: number;
  /** Refused events within STRIKE_WINDOW_MS that end the connection. */
  strikes: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  eventBurst: 10,
  eventsPerSecond: 2,
  maxRooms: 20,
  maxPayloadBytes: 16 * 1024,
  strikes: 3,
};

export const STRIKE_WINDOW_MS = 10_000;

/**
 * A token bucket of `capacity` events refilled at `perSecond`, kept as one number: the time it is
 * full again (each event moves it on by 1/perSecond s; an event is refused while that time lies
 * more than capacity - 1 events ahead). The same decisions as counting fractional tokens, without
 * a bucket object per socket. By hand rather than rate-limiter-flexible: that library counts
 * fixed windows in a keyed store (burst and steady refill are not one setting there), and a
 * socket's counter never needs sharing between processes. Synchronous, so a flood is refused
 * without a promise per event. A clock that goes backwards refills nothing.
 */
export function takeToken(state: LimitState, capacity: number, perSecond: number, now = Date.now()): boolean {
  const interval = 1000 / perSecond;
  const fullAt = Math.max(state.bucketFullAt, now);
  if (fullAt - now > (capacity - 1) * interval) return false;
  state.bucketFullAt = fullAt + interval;
  return true;
}

/** Records a refusal in a sliding window; says when there have been `limit` of them. */
export function recordStrike(
  state: LimitState,
  limit: number,
  now = Date.now(),
  windowMs = STRIKE_WINDOW_MS,
): boolean {
  const times = (state.strikeTimes ?? []).filter((t) => now - t < windowMs);
  times.push(now);
  state.strikeTimes = times;
  return times.length >= limit;
}

const MESSAGES: Record<SocketErrorCode, (limits: SocketLimits) => string> = {
  rate_limited: () => 'Too many requests on this connection. Please slow down.',
  too_many_rooms: (l) => `You can watch at most ${l.maxRooms} competitions at once.`,
};

/**
 * Judges one socket against `limits`; shared by every socket (no closure or object per socket).
 * Each refusal emits `socket:error` and is a strike, and `limits.strikes` strikes in
 * STRIKE_WINDOW_MS disconnect the socket (`onDisconnect` is told why first).
 */
export class SocketLimiter {
  constructor(
    readonly limits: SocketLimits,
    private readonly onDisconnect: (socket: RealtimeSocket, code: SocketErrorCode) => void = () => undefined,
  ) {}

  /** Takes one event from the socket's bucket; null when it may go on, else the refusal's message. */
  refuseEvent(socket: RealtimeSocket): string | null {
    return takeToken(socket.data, this.limits.eventBurst, this.limits.eventsPerSecond)
      ? null
      : this.refuse(socket, SOCKET_ERROR_CODES.rateLimited);
  }

  /** Null when the socket may join `room`; otherwise the refusal's message. */
  refuseRoom(socket: RealtimeSocket, room: string): string | null {
    if (socket.rooms.has(room)) return null;
    let count = 0;
    for (const r of socket.rooms) if (isCompetitionRoom(r)) count++;
    return count < this.limits.maxRooms ? null : this.refuse(socket, SOCKET_ERROR_CODES.tooManyRooms);
  }

  private refuse(socket: RealtimeSocket, code: SocketErrorCode): string {
    const message = MESSAGES[code](this.limits);
    socket.emit('socket:error', { code, message });
    if (recordStrike(socket.data, this.limits.strikes)) {
      this.onDisconnect(socket, code);
      socket.disconnect(true);
    }
    return message;
  }
}
