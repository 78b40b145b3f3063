import type { TicketChange, TicketsBatchEvent } from '../contract/realtime';

/**
 * Burst coalescing of ticket changes per competition room (the shared realtime contract's
 * `tickets:batch`). At ordinary rates every change goes out alone the moment it is published. When
 * a room's changes come faster than `burst` (`changes` within `withinMs`), the room switches to
 * ticks: changes are held and, once a tick has passed, what it gathered goes out as one
 * `tickets:batch` (one frame for the whole room, instead of one per change), or alone when it
 * gathered one. The first tick that gathers nothing ends the burst. Each change is sent exactly
 * once, one way or the other.
 *
 * A tick lasts `tickMs`, or longer when the room is large: writing one frame to every watcher is
 * timed, and the next tick is at least that time divided by `maxShare`, so one room's fan-out takes
 * at most that share of the process however many sockets watch it (a 10,000-socket broadcast takes
 * tens of milliseconds here; back to back they would starve everything else and build a backlog).
 *
 * Why these figures (docs/performance.md, "Fan-out burst"):
 * - tickMs 50: at 100 changes a second a tick holds about 5 of them, so a small room's frames
 *   drop from 100 to 20 a second while a change waits 25 ms on average (50 at most).
 * - maxShare 0.5: the steady 10 frames a second at 10,000 sockets already use about half of one
 *   core here; a burst then costs no more than that.
 * - burst 10 changes within 250 ms (a sustained 40 a second): the steady 10 a second, a person
 *   clicking, or a few requests one after another, never wait for a tick; only a real burst does.
 */
export interface BatchingPolicy {
  tickMs: number;
  /** The share of the process one room's fan-out may take during a burst (0 to 1). */
  maxShare: number;
  burst: { changes: number; withinMs: number };
}

export const DEFAULT_BATCHING: BatchingPolicy = {
  tickMs: 50,
  maxShare: 0.5,
  burst: { changes: 10, withinMs: 250 },
};

export interface TicketsOut {
  /** One change, as `tickets:reserved` / `released` / `purchased`. */
  single(competitionId: number, change: TicketChange): void;
  /** Several changes of one competition, in version order, as `tickets:batch`. */
  batch(event: TicketsBatchEvent): void;
}

interface Room {
  /** Arrival times of the latest changes, oldest first, at most `burst.changes` of them. */
  arrivals: number[];
  /** Changes gathered in the current tick (only while ticking). */
  held: TicketChange[];
  tick: ReturnType<typeof setTimeout> | undefined;
  /** How long the room's latest frame took to write, in ms. */
  lastSendMs: number;
}

export class TicketBatcher {
  private rooms = new Map<number, Room>();
  private closed = false;

  constructor(
    private out: TicketsOut,
    private policy: BatchingPolicy = DEFAULT_BATCHING,
    private now: () => number = () => Date.now(),
  ) {}

  push(competitionId: number, change: TicketChange): void {
    if (this.closed) {
      this.out.single(competitionId, change);
      return;
    }
    let room = this.rooms.get(competitionId);
    if (!room) {
      room = { arrivals: [], held: [], tick: undefined, lastSendMs: 0 };
      this.rooms.set(competitionId, room);
    }
    const at = this.now();
    // Arrivals older than the window can never make a burst again: keep the list short.
    if (!room.tick && at - (room.arrivals.at(-1) ?? at) >= this.policy.burst.withinMs) room.arrivals = [];
    room.arrivals.push(at);
    if (room.arrivals.length > this.policy.burst.changes) room.arrivals.shift();
    if (room.tick) {
      room.held.push(change);
      return;
    }
    const { changes, withinMs } = this.policy.burst;
    if (room.arrivals.length === changes && at - room.arrivals[0]! < withinMs) {
      room.held.push(change);
      this.startTick(competitionId, room);
      return;
    }
    const started = this.now();
    this.out.single(competitionId, change);
    room.lastSendMs = this.now() - started;
  }

  /** Whether the room is in a burst: its changes wait for ticks. Tests wait for a burst to end. */
  ticking(competitionId: number): boolean {
    return this.rooms.get(competitionId)?.tick !== undefined;
  }

  /**
   * Sends what a room holds now. Called before anything else is broadcast to that room
   * (`competition:updated`, a draw, an instant win), so nothing overtakes a held change.
   */
  flush(competitionId: number): void {
    const room = this.rooms.get(competitionId);
    if (room) this.send(competitionId, room);
  }

  /** Shutdown: every held change goes out now; later pushes go out alone at once. */
  close(): void {
    this.closed = true;
    for (const [competitionId, room] of this.rooms) {
      clearTimeout(room.tick);
      room.tick = undefined;
      this.send(competitionId, room);
    }
    this.rooms.clear();
  }

  private startTick(competitionId: number, room: Room): void {
    const ms = Math.max(this.policy.tickMs, room.lastSendMs / this.policy.maxShare);
    room.tick = setTimeout(() => {
      room.tick = undefined;
      if (room.held.length === 0) {
        // A tick with nothing: the burst is over, the next change goes out at once.
        this.rooms.delete(competitionId);
        return;
      }
      this.send(competitionId, room);
      this.startTick(competitionId, room);
    }, ms);
    // A pending tick never keeps the process alive; close() flushes it at shutdown.
    room.tick.unref?.();
  }

  private send(competitionId: number, room: Room): void {
    const held = room.held.sort((a, b) => a.version - b.version);
    room.held = [];
    if (held.length === 0) return;
    // A room broadcast writes to every watcher before it returns: its time is the fan-out's cost.
    const started = this.now();
    if (held.length === 1) this.out.single(competitionId, held[0]!);
    else
      this.out.batch({
        competitionId,
        fromVersion: held[0]!.version,
        toVersion: held.at(-1)!.version,
        changes: held,
      });
    room.lastSendMs = this.now() - started;
  }
}
