import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

// scrypt from node:crypto with one of OWASP's recommended parameter sets (N=2^15, r=8, p=3):
// no native add-on to build, and the parameters travel with each hash so they can be raised later.
const COSTS = {
  production: { N: 2 ** 15, r: 8, p: 3 },
  // PASSWORD_HASH_COST=test: about 1 ms instead of about 230 ms, so a test suite that registers
  // hundreds of accounts does not spend minutes hashing. Configuration refuses it in production.
  test: { N: 2 ** 10, r: 8, p: 1 },
} as const;
export type PasswordHashCost = keyof typeof COSTS;
let PARAMS: (typeof COSTS)[PasswordHashCost] = COSTS.production;

/**
 * The cost of hashes made from now on, for the whole process (the server sets it from its config
 * at start). Stored hashes keep their own parameters, so either cost verifies every hash.
 */
export function setPasswordHashCost(cost: PasswordHashCost): void {
  PARAMS = COSTS[cost];
}
const KEY_LENGTH = 64;

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

const maxmem = (N: number, r: number) => 128 * N * r * 2;

/** "scrypt$N$r$p$salt$hash" (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PARAMS;
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const N = Number(n);
  const R = Number(r);
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N,
    r: R,
    p: Number(p),
    maxmem: maxmem(N, R),
  });
  return timingSafeEqual(key, expected);
}
