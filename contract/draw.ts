import * as v from 'valibot';
import { AdminClaimSchema } from './claims';
import { AdminPrizeWinnerSchema, PrizeWinnerSchema, WinnerAccountSchema } from './prizes';
import { WinnerStorySchema } from './winnerStories';

// The provably fair draw (docs/draws.md). Pure and async on WebCrypto (globalThis.crypto.subtle),
// so the server, `npm run verify-draw` and the browser's 'Verify this draw' run the same code.
//
//   commitment   = hex(SHA-256(seed))                                 seed: 32 random bytes
//   entries      = the sold numbers at the draw, ascending, in decimal, joined by ','
//   entriesHash  = SHA-256(UTF-8(entries))                            32 bytes
//   for counter = 0, 1, 2, ...:
//     mac = HMAC-SHA256(key = seed, message = entriesHash || uint32be(counter))
//     x   = uint32be(mac[0..4))
//     if x < limit = 2^32 - (2^32 mod n): index = x mod n, stop      (else: rejected, next counter)
//   winningNumber = entries[index]
//
// Version 2 (every draw since the beacon, docs/draws.md "Version 2"): the same, with the HMAC key
// seed (32 bytes) || randomness (32 bytes) of the beacon round fixed at the close. Version 1 (key =
// seed alone) is kept so that draws made before it still verify.

const TWO_POW_32 = 2 ** 32;

/** The rule new draws follow; a stored draw says which rule made it. */
export const DRAW_RULE_VERSION = 2;
export type DrawRuleVersion = 1 | 2;
const HEX64 = /^[0-9a-f]{64}$/;

export interface DrawComputation {
  entriesHash: string;
  /** Number of entries (n). */
  entryCount: number;
  /** Position in the ascending list of entries. */
  index: number;
  winningNumber: number;
  /** The counter of the accepted HMAC (0 unless a value was rejected). */
  counter: number;
}

const subtle = () => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available here');
  return s;
};

export const toHex = (bytes: ArrayBuffer | Uint8Array): string =>
  Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) throw new Error('not lowercase hexadecimal');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export const isSeedHex = (s: string): boolean => HEX64.test(s);

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await subtle().digest('SHA-256', bytes));
}

/** The published commitment: hex SHA-256 of the 32 seed bytes (not of the hex text). */
export async function drawCommitment(seedHex: string): Promise<string> {
  if (!isSeedHex(seedHex)) throw new Error('the seed must be 64 lowercase hex characters');
  return toHex(await sha256(fromHex(seedHex)));
}

/** The canonical list: ascending; refuses duplicates and anything but positive whole numbers. */
export function canonicalEntries(numbers: readonly number[]): number[] {
  const sorted = [...numbers].sort((a, b) => a - b);
  sorted.forEach((n, i) => {
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`not a ticket number: ${n}`);
    if (i > 0 && sorted[i - 1] === n) throw new Error(`ticket number ${n} appears twice`);
  });
  return sorted;
}

/** The exact text hashed: '3,7,12' (no spaces, no trailing comma). */
export const entriesText = (sorted: readonly number[]): string => sorted.join(',');

export async function entriesHashBytes(sorted: readonly number[]): Promise<Uint8Array<ArrayBuffer>> {
  return sha256(new TextEncoder().encode(entriesText(sorted)));
}

export async function entriesHash(numbers: readonly number[]): Promise<string> {
  return toHex(await entriesHashBytes(canonicalEntries(numbers)));
}

/** Largest multiple of n that is at most 2^32: values at or above it are rejected. */
export const rejectionLimit = (n: number): number => TWO_POW_32 - (TWO_POW_32 % n);

/** The index x selects among n entries, or null when x must be rejected (keeps it unbiased). */
export function acceptIndex(x: number, n: number): number | null {
  if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) throw new Error('n must be between 1 and 2^32');
  return x < rejectionLimit(n) ? x % n : null;
}

/** The HMAC message for one round: entriesHash (32 bytes) then the counter as 4 bytes big-endian. */
export function roundMessage(hash: Uint8Array, counter: number): Uint8Array<ArrayBuffer> {
  const msg = new Uint8Array(hash.length + 4);
  msg.set(hash, 0);
  new DataView(msg.buffer).setUint32(hash.length, counter >>> 0, false);
  return msg;
}

/** The HMAC key: the seed (version 1), or the seed then the beacon round's randomness (version 2). */
export function drawKey(seedHex: string, beaconRandomnessHex?: string): Uint8Array<ArrayBuffer> {
  if (!isSeedHex(seedHex)) throw new Error('the seed must be 64 lowercase hex characters');
  if (beaconRandomnessHex === undefined) return fromHex(seedHex);
  if (!HEX64.test(beaconRandomnessHex))
    throw new Error('the beacon randomness must be 64 lowercase hex characters');
  return fromHex(seedHex + beaconRandomnessHex);
}

/** One prize's place in a draw of several (docs/draws.md "Several prizes"). */
export interface PrizeComputation {
  /** 1 for the 1st prize, 2 for the 2nd, ... */
  position: number;
  /** Position in the entries still in the draw when this prize was drawn (earlier winners removed). */
  index: number;
  winningNumber: number;
  /** The counter of the accepted HMAC; the next prize continues from the one after it. */
  counter: number;
}

export interface MultiDrawComputation {
  entriesHash: string;
  entryCount: number;
  /** In prize order; fewer than asked for when there are fewer entries than prizes. */
  prizes: PrizeComputation[];
}

/**
 * The winners of `prizeCount` prizes, in order, without replacement: one HMAC stream (the same key
 * and message as a single draw) whose counter runs on from prize to prize; each prize picks among
 * the entries not yet won (ascending), with the rejection limit of that smaller list. Prize 1 is
 * therefore exactly the single-prize result. Prizes beyond the number of entries stay unawarded.
 */
export async function computeDrawPrizes(
  seedHex: string,
  numbers: readonly number[],
  prizeCount: number,
  beaconRandomnessHex?: string,
): Promise<MultiDrawComputation> {
  if (!Number.isSafeInteger(prizeCount) || prizeCount < 1) throw new Error('prizeCount must be at least 1');
  const keyBytes = drawKey(seedHex, beaconRandomnessHex);
  const sorted = canonicalEntries(numbers);
  if (sorted.length === 0) throw new Error('there are no entries to draw from');
  const hash = await entriesHashBytes(sorted);
  const key = await subtle().importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const remaining = [...sorted];
  const prizes: PrizeComputation[] = [];
  let counter = 0;
  while (prizes.length < prizeCount && remaining.length > 0) {
    if (counter >= TWO_POW_32) throw new Error('no value accepted'); // unreachable in practice
    const mac = new Uint8Array(await subtle().sign('HMAC', key, roundMessage(hash, counter)));
    const index = acceptIndex(new DataView(mac.buffer).getUint32(0, false), remaining.length);
    if (index !== null) {
      const [winningNumber] = remaining.splice(index, 1);
      prizes.push({ position: prizes.length + 1, index, winningNumber: winningNumber!, counter });
    }
    counter += 1;
  }
  return { entriesHash: toHex(hash), entryCount: sorted.length, prizes };
}

/**
 * The winning entry for a revealed seed and the sold numbers: version 2 with the beacon round's
 * randomness, version 1 without. Deterministic; order of input is irrelevant. The 1st prize of
 * computeDrawPrizes.
 */
export async function computeDraw(
  seedHex: string,
  numbers: readonly number[],
  beaconRandomnessHex?: string,
): Promise<DrawComputation> {
  const { entriesHash, entryCount, prizes } = await computeDrawPrizes(
    seedHex,
    numbers,
    1,
    beaconRandomnessHex,
  );
  const { index, winningNumber, counter } = prizes[0]!;
  return { entriesHash, entryCount, index, winningNumber, counter };
}

// --- Shapes on the wire -------------------------------------------------------------------------

const Hex64 = v.pipe(v.string(), v.regex(HEX64));

/** A drawn competition's result as the public API and `competition:updated` carry it. */
export const PublicDrawSchema = v.object({
  /** The rule that made it: 1 (seed and entries), 2 (and the beacon round in `drawBeacon`). */
  version: v.picklist([1, 2]),
  seed: Hex64,
  entriesHash: Hex64,
  winningNumber: v.number(),
  winnerName: v.string(),
  /** The winner's town as an admin recorded it for publication; null until then. */
  winnerTown: v.nullable(v.string()),
  drawnAt: v.string(),
  /** Every main prize drawn, 1st first (the top-level fields are the 1st's); docs/draws.md "Several prizes". */
  prizes: v.optional(v.array(PrizeWinnerSchema)),
});
export type PublicDraw = v.InferOutput<typeof PublicDrawSchema>;

/** GET /api/competitions/:id/draw-entries: the sold numbers at the draw, ascending. */
export const DrawEntriesSchema = v.object({
  competitionId: v.number(),
  entriesHash: Hex64,
  numbers: v.array(v.number()),
});
export type DrawEntries = v.InferOutput<typeof DrawEntriesSchema>;

/** GET /api/winners: one line per drawn competition, newest first. */
export const WinnerSchema = v.object({
  competitionId: v.number(),
  title: v.string(),
  image: v.nullable(v.string()),
  winnerName: v.string(),
  winningNumber: v.number(),
  drawnAt: v.string(),
  /** The competition page, where the draw can be verified. */
  url: v.string(),
  /** Every main prize drawn, 1st first. */
  prizes: v.optional(v.array(PrizeWinnerSchema)),
  /** The winners' stories published with their consent, 1st prize first (GET /api/winners). */
  stories: v.optional(v.array(WinnerStorySchema)),
});
export type Winner = v.InferOutput<typeof WinnerSchema>;

/** GET /api/admin/winners: the same, with who won, the order and the prize's delivery. */
export const AdminWinnerSchema = v.object({
  ...WinnerSchema.entries,
  winner: WinnerAccountSchema,
  orderId: v.nullable(v.number()),
  orderNumber: v.nullable(v.string()),
  drawnBy: v.string(),
  prizeDeliveredAt: v.nullable(v.string()),
  winnerNotifiedAt: v.nullable(v.string()),
  /** Published with the winner's name; entered by an admin. */
  winnerTown: v.nullable(v.string()),
  /** Every main prize's winner and delivery, 1st first. */
  prizes: v.optional(v.array(AdminPrizeWinnerSchema)),
  /** The 1st prize's claim (docs/draws.md#7-claiming-a-prize). */
  claim: v.optional(v.nullable(AdminClaimSchema)),
});
export type AdminWinner = v.InferOutput<typeof AdminWinnerSchema>;

/** PATCH /api/admin/winners/:id (the competition id). */
export const WinnerUpdateSchema = v.pipe(
  v.object({
    prizeDelivered: v.optional(v.boolean('prizeDelivered must be true or false')),
    /** The town published with the winner's name; empty clears it. */
    winnerTown: v.optional(
      v.pipe(
        v.string('The town must be text'),
        v.trim(),
        v.maxLength(100, 'The town can be at most 100 characters'),
        v.transform((t) => t || null),
      ),
    ),
  }),
  v.check(
    (b) => b.prizeDelivered !== undefined || b.winnerTown !== undefined,
    'Send prizeDelivered or winnerTown',
  ),
);

/** Why a competition has (not yet) been drawn, for the admin's competition detail. */
export const DRAW_STATES = [
  'open',
  'awaiting_payments',
  'ready',
  'waiting_for_beacon',
  'no_sales',
  'drawn',
] as const;
export const AdminDrawStatusSchema = v.object({
  state: v.picklist(DRAW_STATES),
  message: v.string(),
  /** The beacon round the draw waits for, once fixed, and the last failure to fetch or check it. */
  beaconRound: v.optional(v.nullable(v.number())),
  beaconError: v.optional(v.nullable(v.string())),
});

/** POST /api/admin/competitions/:id/draw when the beacon round is not out yet: the draw follows it. */
export const DrawScheduledSchema = v.object({
  scheduled: v.literal(true),
  message: v.string(),
  round: v.number(),
  dueAt: v.string(),
});
export type DrawScheduled = v.InferOutput<typeof DrawScheduledSchema>;
export type AdminDrawStatus = v.InferOutput<typeof AdminDrawStatusSchema>;
