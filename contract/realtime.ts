import * as v from 'valibot';
import type { CartItemView } from './cart';
import { type AdminOrderEvent, type AdminStats, ORDER_CHANGES, OrderViewSchema } from './checkout';
import { InstantWinPrizeSchema } from './instantWins';
import type { AdminQueueView, QueueAdmittedEvent, QueuePositionEvent } from './launchQueue';
import type { BulkRefundJobView, CompetitionExtendedEvent } from './minimumSales';
import type { NumbersFreedEvent } from './numberAlerts';
import { PrizeWinnerSchema } from './prizes';
import type { AdminLiveEvent } from './salesStats';

// Socket.IO events (docs/product.md#realtime; names are a stable interface, never renamed), with
// `session:ended` as an extension. Server and client share these shapes.

export const ClockEventSchema = v.object({ serverTime: v.pipe(v.string(), v.isoTimestamp()) });
export type ClockEvent = v.InferOutput<typeof ClockEventSchema>;

export const WatchRequestSchema = v.object({
  competitionId: v.pipe(v.number('competitionId must be a number'), v.integer(), v.minValue(1)),
});

export interface CompetitionSnapshot {
  competitionId: number;
  version: number;
  totalTickets: number;
  ticketsSold: number;
  status: string;
  endDate: string;
  autoWin: boolean;
  /** base64 bitmap: number n sold. */
  sold: string;
  /** base64 bitmap: number n held by anyone (this session included). */
  reserved: string;
  /** Numbers held in this session's cart. */
  mine: number[];
  /** Numbers the signed-in account bought (empty for a guest). */
  owned: number[];
  serverTime: string;
}

export type WatchAck = { ok: true; snapshot: CompetitionSnapshot } | { ok: false; message: string };

export interface TicketsEvent {
  competitionId: number;
  version: number;
  numbers: number[];
}

export interface TicketsPurchasedEvent extends TicketsEvent {
  ticketsSold: number;
}

/**
 * One ticket change inside `tickets:batch`: what `tickets:<type>` would have carried alone, less
 * the competition id (the batch's own).
 */
export const TicketChangeSchema = v.variant('type', [
  v.object({
    type: v.picklist(['reserved', 'released']),
    version: v.pipe(v.number(), v.integer()),
    numbers: v.array(v.pipe(v.number(), v.integer())),
  }),
  v.object({
    type: v.literal('purchased'),
    version: v.pipe(v.number(), v.integer()),
    numbers: v.array(v.pipe(v.number(), v.integer())),
    ticketsSold: v.pipe(v.number(), v.integer()),
  }),
]);
export type TicketChange = v.InferOutput<typeof TicketChangeSchema>;

/**
 * Room `competition:<id>`, under load only (the shared realtime contract): several consecutive
 * ticket changes in one frame, in version order; `fromVersion` is the first change's version and
 * `toVersion` the last's. A client applies the changes one by one exactly as if each had come
 * alone, so the gap rule applies to `fromVersion`. A change is sent alone or in a batch, never both.
 */
export const TicketsBatchEventSchema = v.pipe(
  v.object({
    competitionId: v.pipe(v.number(), v.integer(), v.minValue(1)),
    fromVersion: v.pipe(v.number(), v.integer()),
    toVersion: v.pipe(v.number(), v.integer()),
    changes: v.pipe(v.array(TicketChangeSchema), v.minLength(1)),
  }),
  v.check(
    (b) =>
      b.changes.length > 0 &&
      b.changes[0]!.version === b.fromVersion &&
      b.changes.at(-1)!.version === b.toVersion &&
      b.changes.every((c, i) => i === 0 || c.version > b.changes[i - 1]!.version),
    'changes must be in version order, from fromVersion to toVersion',
  ),
);
export type TicketsBatchEvent = v.InferOutput<typeof TicketsBatchEventSchema>;

export interface CompetitionUpdatedEvent {
  competitionId: number;
  version: number;
  [field: string]: unknown;
}

/** Room `competition:<id>`: the draw is being made (a result follows). */
export const DrawStartedEventSchema = v.object({ competitionId: v.number() });
export type DrawStartedEvent = v.InferOutput<typeof DrawStartedEventSchema>;

/**
 * Room `competition:<id>`: the entries are final and the beacon round the draw will use is fixed
 * (the shared contract's `draw:pending`). `entriesFinalAt` and `delaySeconds` are an extension of
 * this code's contract: the moment and the delay the round follows from (docs/draws.md "Version 2").
 */
export const DrawPendingEventSchema = v.object({
  competitionId: v.number(),
  round: v.number(),
  /** When the round is produced (ISO 8601). */
  expectedAt: v.string(),
  entriesFinalAt: v.string(),
  delaySeconds: v.number(),
});
export type DrawPendingEvent = v.InferOutput<typeof DrawPendingEventSchema>;

/** Room `competition:<id>`: the draw's outcome, with what anyone needs to verify it (docs/draws.md). */
export const DrawResultEventSchema = v.object({
  competitionId: v.number(),
  winningNumber: v.number(),
  winnerName: v.string(),
  seed: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  entriesHash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** Extension (draw rule 2, docs/draws.md): the rule, and the beacon round whose randomness it used. */
  version: v.optional(v.picklist([1, 2])),
  beaconRound: v.optional(v.nullable(v.number())),
  beaconRandomness: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)))),
  /** Extension: every main prize drawn, 1st first (the top-level winner is the 1st's); docs/draws.md "Several prizes". */
  prizes: v.optional(v.array(PrizeWinnerSchema)),
  /** Extension: when the server drew (ISO 8601), the moment every draw room's reveal is timed from. */
  drawnAt: v.optional(v.string()),
});
export type DrawResultEvent = v.InferOutput<typeof DrawResultEventSchema>;

/**
 * Why the server refused a socket's event (the shared realtime contract, "Limits and errors").
 * New reasons are added here, never renamed.
 */
export const SOCKET_ERROR_CODES = {
  rateLimited: 'rate_limited',
  tooManyRooms: 'too_many_rooms',
} as const;
export type SocketErrorCode = (typeof SOCKET_ERROR_CODES)[keyof typeof SOCKET_ERROR_CODES];

export const SocketErrorEventSchema = v.object({
  code: v.picklist(Object.values(SOCKET_ERROR_CODES)),
  message: v.string(),
});
export type SocketErrorEvent = v.InferOutput<typeof SocketErrorEventSchema>;

/**
 * Extension, rooms `user:<id>` only: one of the customer's own orders changed (paid, failed,
 * cancelled or refunded), as its owner sees it, so a waiting confirmation page updates live.
 */
export const OrderUpdatedEventSchema = v.object({
  order: OrderViewSchema,
  change: v.picklist(ORDER_CHANGES),
});
export type OrderUpdatedEvent = v.InferOutput<typeof OrderUpdatedEventSchema>;

/**
 * Rooms `competition:<id>` and `admins`: an instant-win number was sold (docs/draws.md#instant-wins).
 * Never sent for a number before it is won.
 */
export const InstantWinClaimedEventSchema = v.object({
  competitionId: v.number(),
  number: v.number(),
  prizeTitle: v.string(),
  winnerDisplayName: v.string(),
});
export type InstantWinClaimedEvent = v.InferOutput<typeof InstantWinClaimedEventSchema>;

/** Room `user:<id>` only: a number this customer bought won an instant prize. */
export const InstantWonEventSchema = v.object({
  competitionId: v.number(),
  number: v.number(),
  prize: InstantWinPrizeSchema,
});
export type InstantWonEvent = v.InferOutput<typeof InstantWonEventSchema>;

/** `competition:opened` (docs/product.md#drafts-and-scheduled-launches). */
export const CompetitionOpenedEventSchema = v.object({ competitionId: v.number(), openedAt: v.string() });
export type CompetitionOpenedEvent = v.InferOutput<typeof CompetitionOpenedEventSchema>;

export interface DrawRoomViewersEvent {
  competitionId: number;
  viewers: number;
}

export interface ServerToClientEvents {
  clock: (payload: ClockEvent) => void;
  'tickets:reserved': (payload: TicketsEvent) => void;
  'tickets:released': (payload: TicketsEvent) => void;
  'tickets:purchased': (payload: TicketsPurchasedEvent) => void;
  /** Coalesced ticket changes under load (TicketsBatchEventSchema). */
  'tickets:batch': (payload: TicketsBatchEvent) => void;
  'competition:updated': (payload: CompetitionUpdatedEvent) => void;
  'draw:pending': (payload: DrawPendingEvent) => void;
  'draw:started': (payload: DrawStartedEvent) => void;
  'draw:result': (payload: DrawResultEvent) => void;
  /** `revision` orders carts: a browser ignores one older than what it already shows. */
  'cart:updated': (payload: { items: CartItemView[]; revision: number }) => void;
  'cart:expired': (payload: { itemIds: number[] }) => void;
  /** Extension: this socket's session was signed in elsewhere or signed out; re-check and reconnect. */
  'session:ended': () => void;
  /** Room `admins` only: an order was created, paid, failed, cancelled or refunded. */
  'admin:order': (payload: AdminOrderEvent) => void;
  /** Room `user:<id>` only: that customer's order changed (OrderUpdatedEventSchema). */
  'order:updated': (payload: OrderUpdatedEvent) => void;
  /** Room `admins` only: the dashboard counts, after every order change. */
  'admin:stats': (payload: AdminStats) => void;
  /**
   * Extension, room `admins` only (AdminLiveEventSchema): sockets connected, numbers held now and
   * payments in the last hour, at most once a second after anything that moves them.
   */
  'admin:live': (payload: AdminLiveEvent) => void;
  /** This socket went over a limit (docs/security.md#socket-limits); one that persists is disconnected. */
  'socket:error': (payload: SocketErrorEvent) => void;
  'instant-win:claimed': (payload: InstantWinClaimedEvent) => void;
  'instant:won': (payload: InstantWonEvent) => void;
  /** Room `draw-room:<id>`: how many are watching the draw room, at most once a second after a change. */
  'draw-room:viewers': (payload: DrawRoomViewersEvent) => void;
  /** Room `competition:<id>`: a scheduled launch reached its opening; holds are taken from now on. */
  'competition:opened': (payload: CompetitionOpenedEvent) => void;
  /** Room `competition:<id>`: short of its minimum, the competition was extended (CompetitionExtendedEventSchema). */
  'competition:extended': (payload: CompetitionExtendedEvent) => void;
  /** Room `admins` only: a cancelled competition's bulk refund moved on (BulkRefundJobSchema). */
  'admin:job': (payload: BulkRefundJobView) => void;
  /** The asking visitor's rooms only: numbers they asked about were released (NumbersFreedEventSchema). */
  'numbers:freed': (payload: NumbersFreedEvent) => void;
  /** The waiting visitor's rooms only, at least every 2 s: their place in a launch queue. */
  'queue:position': (payload: QueuePositionEvent) => void;
  /** The visitor's rooms only: let in from the launch queue; hold numbers before `expiresAt`. */
  'queue:admitted': (payload: QueueAdmittedEvent) => void;
  /** Room `admins` only, each second while a launch queue runs (AdminQueueView). */
  'admin:queue': (payload: AdminQueueView) => void;
}

export interface ClientToServerEvents {
  'competition:watch': (payload: { competitionId: number }, ack: (answer: WatchAck) => void) => void;
  'competition:unwatch': (payload: { competitionId: number }) => void;
  /** The live draw room (docs/product.md#draws): counted among its viewers until leaving or disconnecting. */
  'draw-room:join': (payload: { competitionId: number }, ack: (answer: { ok: boolean }) => void) => void;
  'draw-room:leave': (payload: { competitionId: number }) => void;
}
