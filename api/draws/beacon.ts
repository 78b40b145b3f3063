import {
  type ChainClient,
  type ChainInfo,
  type ChainOptions,
  defaultChainOptions,
  fetchBeacon,
  HttpCachingChain,
  HttpChainClient,
} from 'drand-client';
import { type BeaconRound, QUICKNET } from '../../contract/beacon';
import type { Config } from '../platform/config';
import { type LocalBeacon, openLocalBeacon } from './localBeacon';

// The randomness beacon draws wait for (docs/draws.md "Version 2"): drand's quicknet through
// drand-client, pinned to quicknet's chain hash and public key, or the local test beacon. Every
// round is checked against the chain's public key by drand-client before it is used.

export interface DrawBeacon {
  kind: 'drand' | 'local';
  /** A draw's round is the first produced at least this long after its entries became final. */
  delayMs: number;
  /** The in-process test beacon, served under /api/draw-beacon (DRAW_BEACON=local without a URL). */
  local: LocalBeacon | undefined;
  /** The chain's parameters (public key, genesis, period). */
  info(): Promise<ChainInfo>;
  /** The round, verified against the chain's public key; throws when unreachable, early or invalid. */
  fetchRound(round: number): Promise<BeaconRound>;
}

declare module '../platform/context' {
  interface AppDeps {
    /** Built once by server/startServer.ts from DRAW_BEACON*. */
    drawBeacon: DrawBeacon;
  }
}

/** Nothing the beacon's relay does may hold a draw (or Draw now) up for long. */
const TIMEOUT_MS = 10_000;

function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${TIMEOUT_MS / 1000} s`)),
      TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** drand-client over the local beacon object: the same verification as over HTTP, without a socket. */
function inProcessClient(local: LocalBeacon): ChainClient {
  const options: ChainOptions = { ...defaultChainOptions, noCache: true };
  const produced = (round: number) => {
    const beacon = local.round(round);
    if (!beacon) throw new Error(`round ${round} has not been produced yet`);
    return beacon;
  };
  return {
    options,
    latest: async () => local.latest(),
    get: async (round) => produced(round),
    chain: () => ({ baseUrl: '/api/draw-beacon', info: async () => local.info }),
  };
}

function httpClient(url: string, pinned: boolean): ChainClient {
  const options: ChainOptions = {
    ...defaultChainOptions,
    noCache: true,
    ...(pinned
      ? { chainVerificationParams: { chainHash: QUICKNET.chainHash, publicKey: QUICKNET.publicKey } }
      : {}),
  };
  return new HttpChainClient(new HttpCachingChain(url, options), options);
}

/** The beacon DRAW_BEACON, DRAW_BEACON_URL and DRAW_BEACON_PERIOD_SECONDS describe. */
export function createDrawBeacon(config: Pick<Config, 'drawBeacon' | 'dataDir'>): DrawBeacon {
  const { kind, url, delaySeconds, periodSeconds } = config.drawBeacon;
  const local = kind === 'local' && !url ? openLocalBeacon(config.dataDir, periodSeconds) : undefined;
  // quicknet is pinned: a relay answering with another chain or key is refused by drand-client.
  const client = local ? inProcessClient(local) : httpClient(url ?? QUICKNET.url, kind === 'drand');
  return {
    kind,
    delayMs: delaySeconds * 1000,
    local,
    info: () => withTimeout('the beacon chain info', client.chain().info()),
    fetchRound: async (round) => {
      const b = await withTimeout(`beacon round ${round}`, fetchBeacon(client, round));
      return { round: b.round, randomness: b.randomness, signature: b.signature };
    },
  };
}
