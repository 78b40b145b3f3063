import { type ChainClient, type ChainInfo, fetchBeacon } from 'drand-client';
import { BEACON_SCHEME, type BeaconRound } from './beacon';

// Checking a beacon round's BLS signature (docs/draws.md "Version 2"), shared by the server,
// `npm run verify-draw` and the browser's verifier, which loads it only when asked to verify.

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
