import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { type ChainInfo, type RandomnessBeacon, roundAt } from 'drand-client';
import { BEACON_SCHEME, roundTimeMs } from '../../../contract/beacon';

// The local test beacon (docs/draws.md "The local test beacon"): drand's HTTP API and quicknet's
// scheme, a BLS signature on G1 over sha256(uint64be(round)) with the public key on G2, but signed
// with a key generated on this machine. Whoever holds that key can compute every future round, so
// a draw on it is labelled 'test beacon: not independent'. The key and the chain's genesis are kept
// in DATA_DIR, so rounds (and the draws made with them) still verify after a restart.
// On demand (DRAW_BEACON=on-demand, tests only) a round is also produced the moment a draw asks for
// it, so tests never wait for a round's time; it is the same chain, signed the same way.

const KEY_FILE = 'draw-beacon-key.json';
const short = bls.shortSignatures;

interface KeyFile {
  secretKey: string;
  genesisTime: number;
  period: number;
}

export interface LocalBeacon {
  info: ChainInfo;
  /** A round, signed; null while it has not been produced yet (its time is still to come). */
  round(round: number, now?: number): RandomnessBeacon | null;
  /** The newest round produced by `now`. */
  latest(now?: number): RandomnessBeacon;
  /** On demand only: produces `round` (and every round before it) now, before its time. */
  produce: ((round: number) => RandomnessBeacon) | undefined;
}

function readKeyFile(file: string, period: number): KeyFile | null {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as KeyFile;
    // Another period is another chain: start a new one (draws keep the key they were checked with).
    return saved.period === period && /^[0-9a-f]{64}$/.test(saved.secretKey) ? saved : null;
  } catch {
    return null;
  }
}

/** Opens the beacon kept in `dataDir`, creating its key (and a chain starting now) the first time. */
export function openLocalBeacon(
  dataDir: string,
  period: number,
  { onDemand = false }: { onDemand?: boolean } = {},
): LocalBeacon {
  const file = path.join(dataDir, KEY_FILE);
  let key = readKeyFile(file, period);
  if (!key) {
    key = {
      secretKey: Buffer.from(bls.utils.randomSecretKey()).toString('hex'),
      genesisTime: Math.floor(Date.now() / 1000),
      period,
    };
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(key, null, 2)}\n`, { mode: 0o600 });
  }
  const secretKey = Buffer.from(key.secretKey, 'hex');
  const publicKey = short.getPublicKey(secretKey).toHex(true);
  // drand's chain hash covers the chain's parameters; this one does too, in a form of its own.
  const hash = createHash('sha256')
    .update(`local-test-beacon|${BEACON_SCHEME}|${publicKey}|${key.genesisTime}|${key.period}`)
    .digest('hex');
  const info: ChainInfo = {
    public_key: publicKey,
    period: key.period,
    genesis_time: key.genesisTime,
    hash,
    groupHash: hash,
    schemeID: BEACON_SCHEME,
    metadata: { beaconID: 'local-test' },
  };
  const cache = new Map<number, RandomnessBeacon>();
  const sign = (round: number): RandomnessBeacon => {
    const cached = cache.get(round);
    if (cached) return cached;
    const message = Buffer.alloc(8);
    message.writeBigUInt64BE(BigInt(round));
    const digest = createHash('sha256').update(message).digest();
    const signature = short.Signature.toBytes(short.sign(short.hash(digest), secretKey));
    const beacon = {
      round,
      signature: Buffer.from(signature).toString('hex'),
      randomness: createHash('sha256').update(signature).digest('hex'),
    };
    if (cache.size > 1000) cache.clear();
    cache.set(round, beacon);
    return beacon;
  };
  // Rounds up to this one were produced on demand, ahead of their time (kept in memory: after a
  // restart such a round is out again at its time, a few seconds later).
  let producedUpTo = 0;
  return {
    info,
    round: (round, now = Date.now()) =>
      round <= producedUpTo || roundTimeMs(round, info) <= now ? sign(round) : null,
    latest: (now = Date.now()) => sign(Math.max(roundAt(now, info), producedUpTo)),
    produce: onDemand
      ? (round) => {
          producedUpTo = Math.max(producedUpTo, round);
          return sign(round);
        }
      : undefined,
  };
}

const ROUND_PATH = /^\/(public|produce)\/([1-9]\d{0,15})$/;

/**
 * One request of drand's HTTP API, relative to the chain URL: GET `/info`, `/public/latest`,
 * `/public/<round>` (425 while the round is still to come, as a relay answers too early a request);
 * on demand also POST `/produce/<round>`, which is not drand's: it produces the round now.
 */
export function answerLocalBeacon(
  beacon: LocalBeacon,
  subPath: string,
  method = 'GET',
): { status: number; body: unknown } {
  const m = ROUND_PATH.exec(subPath);
  if (method === 'POST') {
    return beacon.produce && m?.[1] === 'produce'
      ? { status: 200, body: beacon.produce(Number(m[2])) }
      : { status: 405, body: { message: 'Method not allowed' } };
  }
  if (method !== 'GET') return { status: 405, body: { message: 'Method not allowed' } };
  if (subPath === '/info') return { status: 200, body: beacon.info };
  if (subPath === '/public/latest') return { status: 200, body: beacon.latest() };
  if (m?.[1] !== 'public') return { status: 404, body: { message: 'Not found' } };
  const round = beacon.round(Number(m[2]));
  return round
    ? { status: 200, body: round }
    : { status: 425, body: { message: `Round ${m[2]} has not been produced yet.` } };
}

export interface LocalBeaconServer {
  url: string;
  beacon: LocalBeacon;
  close: () => Promise<void>;
}

/** The local beacon on a port of its own (tests start one; DRAW_BEACON_URL points at it). */
export async function startLocalBeaconServer(
  dataDir: string,
  period: number,
  {
    host = '127.0.0.1',
    port = 0,
    onDemand = false,
  }: { host?: string; port?: number; onDemand?: boolean } = {},
): Promise<LocalBeaconServer> {
  const beacon = openLocalBeacon(dataDir, period, { onDemand });
  const server = http.createServer((req, res) => {
    const subPath = new URL(req.url ?? '/', 'http://beacon').pathname;
    const { status, body } = answerLocalBeacon(beacon, subPath, req.method);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${bound}`,
    beacon,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
