import { execFileSync } from 'node:child_process';
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify as verifySignature,
} from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// A push service on loopback for the web push tests (docs/product.md#web-push): HTTPS with a
// self-signed certificate made here by openssl, which the server's push agent trusts (the test
// hands the server an agent with it as its CA: NODE_EXTRA_CA_CERTS is read only when a process
// starts, and vitest's workers start before this certificate exists). It records each POST; the
// browser's side is played by `browserSubscription`, whose keys decrypt the payload (RFC 8291).

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface LocalPushService {
  /** The HTTPS agent trusting this service's certificate (for the server under test). */
  agent: https.Agent;
  start(): Promise<void>;
  close(): Promise<void>;
  /** An endpoint on this service; its answer to a push is `status` (201 unless told). */
  endpoint(name: string, status?: number): string;
  /** Every push received so far. */
  received: ReceivedPush[];
  /** Resolves with the next push to `name` (or one already received and not yet taken). */
  next(name: string, timeoutMs?: number): Promise<ReceivedPush>;
}

function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcp-push-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const pair = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
  fs.rmSync(dir, { recursive: true, force: true });
  return pair;
}

export function createLocalPushService(): LocalPushService {
  const { key, cert } = selfSignedCertificate();
  const statuses = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const taken = new Set<ReceivedPush>();
  const waiting: Array<{ name: string; resolve: (p: ReceivedPush) => void }> = [];
  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const name = (req.url ?? '/').replace(/^\/push\//, '');
      const push = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(push);
      res.writeHead(statuses.get(name) ?? 201).end();
      const i = waiting.findIndex((w) => w.name === name);
      if (i >= 0) {
        taken.add(push);
        waiting.splice(i, 1)[0]!.resolve(push);
      }
    });
  });
  let origin = '';
  return {
    agent: new https.Agent({ ca: cert }),
    received,
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    endpoint(name, status = 201) {
      statuses.set(name, status);
      return `${origin}/push/${name}`;
    },
    next(name, timeoutMs = 10_000) {
      const ready = received.find((p) => p.path === `/push/${name}` && !taken.has(p));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no push to ${name}`)), timeoutMs);
        waiting.push({
          name,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
  };
}

/** A browser's side of a subscription: its P-256 key pair and auth secret (RFC 8291 §2). */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const uaPublic = ecdh.getPublicKey();
  return {
    json: { endpoint, keys: { p256dh: uaPublic.toString('base64url'), auth: auth.toString('base64url') } },
    /** Decrypts an aes128gcm body (RFC 8188 with the RFC 8291 key schedule) to its text. */
    decrypt(body: Buffer): string {
      const salt = body.subarray(0, 16);
      const recordSize = body.readUInt32BE(16);
      const idLength = body[20]!;
      const asPublic = body.subarray(21, 21 + idLength);
      const record = body.subarray(21 + idLength);
      if (record.length > recordSize) throw new Error('more than one record');
      const shared = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
      const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const padded = Buffer.concat([
        decipher.update(record.subarray(0, record.length - 16)),
        decipher.final(),
      ]);
      // The last record ends with the delimiter 0x02, then any zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      if (padded[end] !== 2) throw new Error('missing the last-record delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/**
 * Reads and checks the VAPID Authorization header (RFC 8292): `vapid t=<JWT>, k=<public key>`,
 * the JWT signed ES256 by that key. Answers the key and the JWT's claims.
 */
export function vapidOf(authorization: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID Authorization header: ${authorization}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  const [header, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verifySignature(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  return {
    publicKey: k,
    valid,
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string },
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
      aud: string;
      exp: number;
      sub: string;
    },
  };
}
