import type { Socket } from 'socket.io';
import { SOCKET_ERROR_CODES, type SocketErrorCode } from '../contract/realtime';
import { isCompetitionRoom } from './rooms';

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
 * A token bucket: `capacity` events at once, refilled at `perSecond`. By hand rather than
 * rate-limiter-flexible: that library counts fixed windows in a keyed store (burst and steady
 * refill are not one setting there), and a socket's counter never needs sharing between
 * processes. Synchronous, so a flood is refused without a promise per event.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
    now = Date.now(),
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  /** Takes one token if there is one. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Counts refusals in a sliding window; `record` says when there have been `limit` of them. */
export class Strikes {
  private times: number[] = [];

  constructor(
    readonly limit: number,
    readonly windowMs = STRIKE_WINDOW_MS,
  ) {}

  record(now = Date.now()): boolean {
    this.times = this.times.filter((t) => now - t < this.windowMs);
    this.times.push(now);
    return this.times.length >= this.limit;
  }
}

const MESSAGES: Record<SocketErrorCode, (limits: SocketLimits) => string> = {
  rate_limited: () => 'Too many requests on this connection. Please slow down.',
  too_many_rooms: (l) => `You can watch at most ${l.maxRooms} competitions at once.`,
};

export interface SocketGuard {
  /** Null when the socket may join `room`; otherwise the refusal's message (already sent as socket:error). */
  refuseRoom(room: string): string | null;
}

/**
 * Applies the event rate to every event the socket sends. An event over the rate is dropped (its
 * ack, if any, answers `{ ok: false, message }`); each refusal emits `socket:error` and is a
 * strike, and `limits.strikes` strikes in STRIKE_WINDOW_MS disconnect the socket.
 */
export function guardSocket(
  socket: Socket,
  limits: SocketLimits,
  onDisconnect: (code: SocketErrorCode) => void = () => undefined,
): SocketGuard {
  const bucket = new TokenBucket(limits.eventBurst, limits.eventsPerSecond);
  const strikes = new Strikes(limits.strikes);

  const refuse = (code: SocketErrorCode): string => {
    const message = MESSAGES[code](limits);
    socket.emit('socket:error', { code, message });
    if (strikes.record()) {
      onDisconnect(code);
      socket.disconnect(true);
    }
    return message;
  };

  socket.use((packet, next) => {
    if (!socket.connected) return;
    if (bucket.take()) return next();
    const message = refuse(SOCKET_ERROR_CODES.rateLimited);
    const ack = packet[packet.length - 1];
    if (typeof ack === 'function') ack({ ok: false, message });
  });

  return {
    refuseRoom(room) {
      if (socket.rooms.has(room)) return null;
      let count = 0;
      for (const r of socket.rooms) if (isCompetitionRoom(r)) count++;
      return count < limits.maxRooms ? null : refuse(SOCKET_ERROR_CODES.tooManyRooms);
    },
  };
}
