import * as v from 'valibot';
import { fromHex, isSeedHex, toHex } from './draw';

// A fair queue for hot launches (docs/draws.md#launch-queue). The order is a pure function of the
// queue's seed (committed before the queue opened, revealed after the shuffle) and the entry ids,
// so anyone can recompute it from GET /api/competitions/:id/queue/order.

export const QUEUE_REQUIRED_MESSAGE = "You're in the queue: we'll let you in shortly.";

/** Admission rates an admin may set, per second. */
export const ADMIT_RATE_MIN = 1;
export const ADMIT_RATE_MAX = 1000;

const subtle = () => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return s;
};

/** The published commitment: hex SHA-256 of the 32 seed bytes (as the draw's: contract/draw.ts). */
export async function queueCommitment(seedHex: string): Promise<string> {
  if (!isSeedHex(seedHex)) throw new Error('the seed must be 64 lowercase hex characters');
  return toHex(await subtle().digest('SHA-256', fromHex(seedHex)));
}

/** An entry's shuffle key: hex SHA-256 of the text `<seed hex>:<entry id>`. */
export async function queueKey(seedHex: string, entryId: number): Promise<string> {
  return toHex(await subtle().digest('SHA-256', new TextEncoder().encode(`${seedHex}:${entryId}`)));
}

/**
 * The shuffle: the entry ids that joined before the opening, in queue order (position 1 first):
 * ascending by queueKey, ties (never seen with SHA-256) by id.
 */
export async function shuffledOrder(seedHex: string, entryIds: readonly number[]): Promise<number[]> {
  const keyed = await Promise.all(entryIds.map(async (id) => ({ id, key: await queueKey(seedHex, id) })));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id));
  return keyed.map((k) => k.id);
}

/** POST /api/competitions/:id/queue: this visitor's place. */
export interface QueuePlaceView {
  status: 'waiting' | 'admitted';
  entryId: number;
  /** Waiting after the shuffle: 1 = next in. Absent before the shuffle (everyone joined so far is equal). */
  position?: number;
  /** Waiting visitors before this one. */
  ahead?: number;
  etaSeconds?: number;
  /** Admitted: hold numbers before this (ISO 8601); absent when the queue is over (open to all). */
  expiresAt?: string;
  /** Waiting before the shuffle: when it happens (the opening, ISO 8601). */
  shuffleAt?: string;
}

/** GET /api/competitions/:id/queue/order, after the shuffle: everything needed to check it. */
export interface QueueOrderView {
  seed: string;
  commitment: string;
  entries: Array<{ entryId: number; joinedBeforeOpening: boolean; position: number }>;
}

/** GET /api/admin/competitions/:id/queue, and the `admin:queue` socket event. */
export interface AdminQueueView {
  competitionId: number;
  waiting: number;
  admitted: number;
  admitPerSecond: number;
  /** New holds per second on the competition, over the last five seconds. */
  holdsPerSecond: number;
}

/** PUT /api/admin/competitions/:id/queue */
export const AdmitRateSchema = v.object({
  admitPerSecond: v.pipe(
    v.number('admitPerSecond must be a number'),
    v.integer('admitPerSecond must be a whole number'),
    v.minValue(ADMIT_RATE_MIN, `admitPerSecond must be at least ${ADMIT_RATE_MIN}`),
    v.maxValue(ADMIT_RATE_MAX, `admitPerSecond must be at most ${ADMIT_RATE_MAX}`),
  ),
});

/** Socket `queue:position`, to the waiting visitor's own rooms. */
export const QueuePositionEventSchema = v.object({
  competitionId: v.number(),
  position: v.number(),
  ahead: v.number(),
  etaSeconds: v.number(),
});
export type QueuePositionEvent = v.InferOutput<typeof QueuePositionEventSchema>;

/** Socket `queue:admitted`, to the admitted visitor's own rooms. */
export const QueueAdmittedEventSchema = v.object({ competitionId: v.number(), expiresAt: v.string() });
export type QueueAdmittedEvent = v.InferOutput<typeof QueueAdmittedEventSchema>;

/** About `ahead / rate` seconds, rounded up. */
export const etaSecondsOf = (ahead: number, perSecond: number) => Math.ceil(ahead / Math.max(1, perSecond));

/** LAUNCH_QUEUE_OPENS_MINUTES's default: the page offers 'Join the queue' from then (the server decides). */
export const QUEUE_JOIN_MINUTES = 10;

/** 'about 40 seconds', 'about 1 minute', 'about 3 minutes' (minutes rounded up). */
export function etaText(seconds: number): string {
  if (seconds < 60) return seconds <= 1 ? 'about a second' : `about ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
}
