import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

// The token of a postal winner's claim link (docs/draws.md#7-claiming-a-prize): 32 random bytes,
// base64url, of which only the SHA-256 is stored with the claim (as the account tokens,
// docs/security.md#account-tokens). The link names the claim; the token is checked against that
// claim's hash only, with timingSafeEqual, so one link opens one claim and nothing else.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A new link token and the hash the claim keeps. */
export function newClaimLink(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256(token) };
}

/** True when `token` is the one whose hash the claim keeps (false when it keeps none). */
export function tokenMatches(storedHash: string | null, token: string): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(sha256(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
