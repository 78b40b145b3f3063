import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { type ChainInfo, type RandomnessBeacon, roundAt } from 'drand-client';
import { BEACON_SCHEME, roundTimeMs } from '../../contract/beacon';

// The local test beacon (docs/draws.md "The local test beacon"): drand's HTTP API and quicknet's
// scheme, a BLS signature on G1 over sha256(uint64be(round)) with the public key on G2, but signed
// with a key generated on this machine. Whoever holds that key can compute every future round, so
// a draw on it is labelled 'test beacon: not independent'. The key and the chain's genesis are kept
// in DATA_DIR, so rounds (and the draws made with them) still verify after a restart.

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
export function openLocalBeacon(dataDir: string, period: number): LocalBeacon {
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
  return {
    info,
    round: (round, now = Date.now()) => (roundTimeMs(round, info) <= now ? sign(round) : null),
    latest: (now = Date.now()) => sign(roundAt(now, info)),
  };
}

/**
 * One request of drand's HTTP API, relative to the chain URL: `/info`, `/public/latest`,
 * `/public/<round>` (425 while the round is still to come, as a relay answers too early a request).
 */
export function answerLocalBeacon(beacon: LocalBeacon, subPath: string): { status: number; body: unknown } {
  if (subPath === '/info') return { status: 200, body: beacon.info };
  if (subPath === '/public/latest') return { status: 200, body: beacon.latest() };
  const m = /^\/public\/([1-9]\d{0,15})$/.exec(subPath);
  if (!m) return { status: 404, body: { message: 'Not found' } };
  const round = beacon.round(Number(m[1]));
  return round
    ? { status: 200, body: round }
    : { status: 425, body: { message: `Round ${m[1]} has not been produced yet.` } };
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
  { host = '127.0.0.1', port = 0 }: { host?: string; port?: number } = {},
): Promise<LocalBeaconServer> {
  const beacon = openLocalBeacon(dataDir, period);
  const server = http.createServer((req, res) => {
    const { status, body } =
      req.method === 'GET'
        ? answerLocalBeacon(beacon, new URL(req.url ?? '/', 'http://beacon').pathname)
        : { status: 405, body: { message: 'Method not allowed' } };
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
