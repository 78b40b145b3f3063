import { type ChainClient, type ChainInfo, fetchBeacon, quicknetClient } from 'drand-client';
import * as v from 'valibot';

// The public randomness a version-2 draw waits for (docs/draws.md): one round of the drand
// beacon's quicknet chain, or of the local test beacon that speaks the same API and scheme
// ('bls-unchained-g1-rfc9380': a BLS signature on G1 over sha256(uint64be(round)), the public key
// on G2, randomness = sha256(signature)). Shared by the server, `npm run verify-draw` and the
// browser, so all three check a round the same way, with drand-client's own verification.

export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';

const quicknet = quicknetClient();
/** The League of Entropy's quicknet chain, pinned: a draw on it is checked against this key only. */
export const QUICKNET = {
  url: quicknet.chain().baseUrl,
  chainHash: quicknet.options.chainVerificationParams?.chainHash ?? '',
  publicKey: quicknet.options.chainVerificationParams?.publicKey ?? '',
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

export interface BeaconRound {
  round: number;
  randomness: string;
  signature: string;
}

/**
 * Checks a round against a chain's public key (throws if the signature, the randomness or the
 * round does not match): drand-client's fetchBeacon over the values already in hand.
 */
export async function verifyBeaconRound(publicKey: string, beacon: BeaconRound): Promise<void> {
  const info: ChainInfo = {
    public_key: publicKey,
    period: 1,
    genesis_time: 0,
    hash: '',
    groupHash: '',
    schemeID: BEACON_SCHEME,
    metadata: { beaconID: '' },
  };
  const client: ChainClient = {
    options: { disableBeaconVerification: false, noCache: true },
    latest: async () => beacon,
    get: async () => beacon,
    chain: () => ({ baseUrl: '', info: async () => info }),
  };
  await fetchBeacon(client, beacon.round);
}

/** True when the round verifies against the key; never throws. */
export const beaconRoundIsValid = (publicKey: string, beacon: BeaconRound): Promise<boolean> =>
  verifyBeaconRound(publicKey, beacon).then(
    () => true,
    () => false,
  );

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
});
export type DrawBeacon = v.InferOutput<typeof DrawBeaconSchema>;
