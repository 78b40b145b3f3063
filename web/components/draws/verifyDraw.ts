import { checkRequiredRound, type DrawBeacon, isIndependentBeacon, QUICKNET } from '../../../contract/beacon';
import { computeDrawPrizes, drawCommitment, entriesHash } from '../../../contract/draw';
import { ordinal, type PrizeWinner } from '../../../contract/prizes';

// The browser's own check of a published draw (docs/draws.md section 5), with the same code the
// server drew with (contract/draw.ts on WebCrypto, contract/beacon.ts for the beacon round).
// Nothing here trusts the server's arithmetic: only its published inputs (commitment, seed, sold
// numbers, beacon round) and its claimed outputs. A quicknet round is checked against drand's
// public key as pinned in drand-client, not against a key the site supplies.

export type CheckStatus = 'passed' | 'failed';

export interface DrawCheck {
  key: 'commitment' | 'entries' | 'round' | 'beacon' | 'winner' | `prize-${number}`;
  label: string;
  status: CheckStatus;
  /** What the page was told, and what this browser computed. */
  published: string;
  computed: string;
}

export interface PublishedDraw {
  drawCommitment: string;
  seed: string;
  entriesHash: string;
  winningNumber: number;
  /** 2: the draw also used the beacon round below (absent: version 1). */
  version?: 1 | 2;
  beacon?: DrawBeacon | null;
  /** Several main prizes (docs/draws.md "Several prizes"): each one's winning number, 1st first. */
  prizes?: readonly Pick<PrizeWinner, 'position' | 'title' | 'winningNumber'>[];
  /** How many main prizes the competition lists (absent: one). */
  prizeCount?: number;
}

const check = (key: DrawCheck['key'], label: string, published: string, computed: string): DrawCheck => ({
  key,
  label,
  status: published === computed ? 'passed' : 'failed',
  published,
  computed,
});

/**
 * The round must be the one the published moment the entries became final and the delay require
 * (the server's own requiredRound): a later real round would sign as well.
 */
function roundCheck(beacon: DrawBeacon | null | undefined): DrawCheck | undefined {
  if (!beacon?.randomness) return undefined;
  const result = checkRequiredRound(beacon);
  return {
    key: 'round',
    label: result.ok
      ? `Round ${beacon.round} is the one required: ${result.message}`
      : `The round is not the one required: ${result.message}`,
    status: result.ok ? 'passed' : 'failed',
    published: String(beacon.round),
    computed: result.required === null ? 'not computable' : String(result.required),
  };
}

async function beaconCheck(beacon: DrawBeacon | null | undefined): Promise<DrawCheck> {
  if (!beacon?.randomness || !beacon.signature)
    return check('beacon', 'The beacon round the draw used is published', 'published', 'missing');
  const independent = isIndependentBeacon(beacon.chain);
  // The BLS code loads only here, when someone verifies.
  const { beaconRoundIsValid } = await import('../../../contract/beaconVerify');
  const valid = await beaconRoundIsValid(independent ? QUICKNET.publicKey : beacon.publicKey, {
    round: beacon.round,
    randomness: beacon.randomness,
    signature: beacon.signature,
  });
  return check(
    'beacon',
    independent
      ? `drand round ${beacon.round} is signed by the League of Entropy's quicknet key`
      : `Round ${beacon.round} is signed by the test beacon's key (test beacon: not independent)`,
    beacon.randomness,
    valid ? beacon.randomness : 'signature does not verify',
  );
}

/** Recomputes the commitment, the entries hash, the beacon round and the winning number. */
export async function verifyDraw(draw: PublishedDraw, soldNumbers: readonly number[]): Promise<DrawCheck[]> {
  const v2 = draw.version === 2;
  const commitment = await drawCommitment(draw.seed).catch(() => 'not a valid seed');
  const hash = await entriesHash(soldNumbers).catch((err: Error) => `invalid list: ${err.message}`);
  const round = v2 ? roundCheck(draw.beacon) : undefined;
  const beacon = v2 ? await beaconCheck(draw.beacon) : undefined;
  const prizeCount = Math.max(1, draw.prizeCount ?? 1);
  const computed = await computeDrawPrizes(
    draw.seed,
    soldNumbers,
    prizeCount,
    v2 ? draw.beacon?.randomness : undefined,
  ).then(
    (r) => r.prizes.map((p) => String(p.winningNumber)),
    (err: Error) => `cannot compute: ${err.message}`,
  );
  const nth = (i: number) => (typeof computed === 'string' ? computed : (computed[i] ?? 'not drawn'));
  const winner = nth(0);
  // The 2nd and later prizes continue the same HMAC stream among the numbers not yet won.
  const further =
    prizeCount > 1
      ? Array.from({ length: prizeCount - 1 }, (_, i) => {
          const position = i + 2;
          const shown = draw.prizes?.find((p) => p.position === position);
          return check(
            `prize-${position}`,
            `The same stream, continued without the earlier winners, picks the ${ordinal(position)} prize${shown ? ` (${shown.title})` : ''}`,
            shown ? String(shown.winningNumber) : 'not drawn',
            nth(i + 1),
          );
        })
      : [];
  return [
    check(
      'commitment',
      'SHA-256 of the revealed seed equals the commitment published before sales',
      draw.drawCommitment,
      commitment,
    ),
    check(
      'entries',
      `SHA-256 of the ${soldNumbers.length.toLocaleString('en-GB')} sold numbers equals the entries hash`,
      draw.entriesHash,
      hash,
    ),
    ...(round ? [round] : []),
    ...(beacon ? [beacon] : []),
    check(
      'winner',
      v2
        ? 'HMAC-SHA256 of the seed, the beacon randomness and the entries hash picks the winning number'
        : 'HMAC-SHA256 of the seed and entries hash picks the winning number',
      String(draw.winningNumber),
      winner,
    ),
    ...further,
  ];
}
