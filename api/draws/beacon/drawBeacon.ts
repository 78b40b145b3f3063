import {
  type ChainClient,
  type ChainInfo,
  type ChainOptions,
  defaultChainOptions,
  fetchBeacon,
  HttpCachingChain,
  HttpChainClient,
} from 'drand-client';
import { type BeaconRound, QUICKNET } from '../../../contract/beacon';
import type { Config } from '../../platform/config';
import { type LocalBeacon, openLocalBeacon } from './localBeacon';

// The randomness beacon draws wait for (docs/draws.md "Version 2"): drand's quicknet through
// drand-client, pinned to quicknet's chain hash and public key, or the local test beacon (producing
// rounds at their time, or on demand in tests). Every round is checked against the chain's public
// key by drand-client before it is used.

export interface DrawBeacon {
  kind: Config['drawBeacon']['kind'];
  /** A draw's round is the first produced at least this long after its entries became final. */
  delayMs: number;
  /** The in-process test beacon, served under /api/draw-beacon (DRAW_BEACON=local without a URL). */
  local: LocalBeacon | undefined;
  /** The chain's parameters (public key, genesis, period). */
  info(): Promise<ChainInfo>;
  /**
   * Resolves once `round`, due at `dueAt`, is out: at its time (drand, the local beacon), or at
   * once on the on-demand test beacon, which produces it when asked.
   */
  waitForRound(round: number, dueAt: number): Promise<void>;
  /** The pause before asking again for a round that was late or failed, times the attempt. */
  retryPauseMs: number;
  /** The round, verified against the chain's public key; throws when unreachable, early or invalid. */
  fetchRound(round: number): Promise<BeaconRound>;
}

declare module '../../platform/context' {
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

/** Until `dueAt`. Unref'd: a draw waiting for its round does not keep a stopping process alive. */
async function untilDue(_round: number, dueAt: number): Promise<void> {
  const wait = dueAt - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait).unref());
}

/** The on-demand test beacon produces the round now: in this process, or over HTTP at `url`. */
function producer(local: LocalBeacon | undefined, url: string | undefined) {
  return async (round: number): Promise<void> => {
    if (local?.produce) {
      local.produce(round);
      return;
    }
    const res = await fetch(`${url}/produce/${round}`, {
      method: 'POST',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`the on-demand beacon did not produce round ${round} (HTTP ${res.status})`);
  };
}

/** The beacon DRAW_BEACON, DRAW_BEACON_URL and DRAW_BEACON_PERIOD_SECONDS describe. */
export function createDrawBeacon(config: Pick<Config, 'drawBeacon' | 'dataDir'>): DrawBeacon {
  const { kind, url, delaySeconds, periodSeconds } = config.drawBeacon;
  const onDemand = kind === 'on-demand';
  const local =
    kind !== 'drand' && !url ? openLocalBeacon(config.dataDir, periodSeconds, { onDemand }) : undefined;
  // quicknet is pinned: a relay answering with another chain or key is refused by drand-client.
  const client = local ? inProcessClient(local) : httpClient(url ?? QUICKNET.url, kind === 'drand');
  return {
    kind,
    delayMs: delaySeconds * 1000,
    local,
    // A round produced on demand is never late, so asking again at once is enough.
    retryPauseMs: onDemand ? 0 : 500,
    waitForRound: onDemand ? producer(local, url) : untilDue,
    info: () => withTimeout('the beacon chain info', client.chain().info()),
    fetchRound: async (round) => {
      const b = await withTimeout(`beacon round ${round}`, fetchBeacon(client, round));
      return { round: b.round, randomness: b.randomness, signature: b.signature };
    },
  };
}
