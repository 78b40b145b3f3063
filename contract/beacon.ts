import type { ChainInfo } from 'drand-client';
import * as v from 'valibot';

// The public randomness a version-2 draw waits for (docs/draws.md): one round of the drand
// beacon's quicknet chain, or of the local test beacon that speaks the same API and scheme
// ('bls-unchained-g1-rfc9380': a BLS signature on G1 over sha256(uint64be(round)), the public key
// on G2, randomness = sha256(signature)). Shared by the server, `npm run verify-draw` and the
// browser, so all three check a round the same way (contract/beaconVerify.ts, with drand-client's
// own verification; kept apart so that pages load the BLS code only to verify).

export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';

/**
 * The League of Entropy's quicknet chain, pinned: a draw on it is checked against this key only.
 * The same values as drand-client's quicknetClient() (tests/unit/beacon.test.ts holds them equal).
 */
export const QUICKNET = {
  url: 'https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  /** Round 1's time (seconds since the epoch) and the seconds between rounds. */
  genesisTime: 1692803367,
  period: 3,
};

/** True for a draw on drand's quicknet; anything else is the local test beacon (not independent). */
export const isIndependentBeacon = (chain: string): boolean => chain === QUICKNET.chainHash;

/** What a chain's timing needs: seconds since the epoch of round 1, and seconds between rounds. */
export type BeaconTiming = Pick<ChainInfo, 'genesis_time' | 'period'>;

/** When a round is produced (epoch ms): round 1 at genesis, then one per period. */
export const roundTimeMs = (round: number, chain: BeaconTiming): number =>
  (chain.genesis_time + (round - 1) * chain.period) * 1000;

/** The first round produced at or after `timeMs`: the round a draw fixed at that moment waits for. */
export function firstRoundAtOrAfter(timeMs: number, chain: BeaconTiming): number {
  const since = timeMs / 1000 - chain.genesis_time;
  return since <= 0 ? 1 : Math.ceil(since / chain.period) + 1;
}

/**
 * The round a draw must use: the first produced at least `delayMs` after the moment its entries
 * became final. The one function the server fixes the round with and both verifiers check it with.
 */
export const requiredRound = (entriesFinalAtMs: number, delayMs: number, chain: BeaconTiming): number =>
  firstRoundAtOrAfter(entriesFinalAtMs + delayMs, chain);

/** Whether a published draw used the round its entries-final moment and delay require. */
export type RoundCheck =
  | { ok: true; required: number; message: string }
  | { ok: false; required: number | null; message: string };

/**
 * Checks the published round against the one required by the published moment the entries became
 * final and the delay, on the chain's own timing (quicknet's pinned, whatever the site says).
 */
export function checkRequiredRound(beacon: DrawBeacon): RoundCheck {
  const finalAt = beacon.entriesFinalAt ? Date.parse(beacon.entriesFinalAt) : Number.NaN;
  const delayMs = beacon.delaySeconds === undefined ? Number.NaN : beacon.delaySeconds * 1000;
  const timing = isIndependentBeacon(beacon.chain)
    ? { genesis_time: QUICKNET.genesisTime, period: QUICKNET.period }
    : beacon.genesisTime !== undefined && beacon.period
      ? { genesis_time: beacon.genesisTime, period: beacon.period }
      : null;
  if (!Number.isFinite(finalAt) || !Number.isFinite(delayMs) || delayMs < 0 || !timing) {
    return {
      ok: false,
      required: null,
      message: `round ${beacon.round} cannot be checked: the moment the entries became final, the delay or the chain's timing is not published`,
    };
  }
  const required = requiredRound(finalAt, delayMs, timing);
  const basis = `entries final at ${new Date(finalAt).toISOString()} plus a ${delayMs / 1000} s delay`;
  return required === beacon.round
    ? { ok: true, required, message: `round ${required} is the one required (${basis})` }
    : {
        ok: false,
        required,
        message: `the draw used round ${beacon.round}, but the round required (${basis}) is ${required}`,
      };
}

export interface BeaconRound {
  round: number;
  randomness: string;
  signature: string;
}

const Hex = v.pipe(v.string(), v.regex(/^[0-9a-f]+$/));

/**
 * `drawBeacon` on the public competition: fixed when sales close and the entries are final,
 * before the round exists (`dueAt` is when it will); `randomness` and `signature` once drawn.
 */
export const DrawBeaconSchema = v.object({
  /** The chain's hash (drand's quicknet, or the local test beacon's). */
  chain: Hex,
  round: v.number(),
  /** When the round is produced (ISO 8601): the draw follows it. */
  dueAt: v.string(),
  /** The chain's public key the round is checked against (for quicknet: the pinned key). */
  publicKey: Hex,
  randomness: v.optional(Hex),
  signature: v.optional(Hex),
  /** When the entries became final and the round was fixed (ISO 8601, ms): the round follows from it. */
  entriesFinalAt: v.optional(v.string()),
  /** DRAW_BEACON_DELAY_SECONDS when the round was fixed. */
  delaySeconds: v.optional(v.number()),
  /** The chain's round 1 (seconds since the epoch) and seconds between rounds. */
  genesisTime: v.optional(v.number()),
  period: v.optional(v.number()),
});
export type DrawBeacon = v.InferOutput<typeof DrawBeaconSchema>;
