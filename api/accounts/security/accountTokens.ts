import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';

// One-time tokens sent by e-mail (docs/security.md#account-tokens): 32 random bytes, of which only
// the SHA-256 is stored. The row is found by the first 16 hex digits of the hash, and the whole
// hash is then compared with timingSafeEqual, so the lookup's timing says nothing about the rest.
// A token is used once (a conditional UPDATE, so two parallel uses cannot both succeed) and expires.

export type TokenPurpose = 'reset_password' | 'verify_email';

export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  reset_password: 60 * 60 * 1000,
  verify_email: 24 * 60 * 60 * 1000,
};

interface TokenRow {
  id: number;
  userId: number;
  purpose: TokenPurpose;
  selector: string;
  tokenHash: string;
  email: string | null;
  expiresAt: number;
  usedAt: number | null;
}

export interface UsedToken {
  userId: number;
  email: string | null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A new token for the user, returned once (it goes in the e-mailed link). Earlier unused tokens of
 * the same purpose are spent, so only the latest link works.
 */
export async function issueToken(
  trx: Knex.Transaction,
  userId: number,
  purpose: TokenPurpose,
  { email = null, now = Date.now() }: { email?: string | null; now?: number } = {},
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url');
  const hash = sha256(token);
  const expiresAt = now + TOKEN_LIFETIME_MS[purpose];
  await spendTokens(trx, userId, purpose, now);
  await trx('accountTokens').insert({
    userId,
    purpose,
    selector: hash.slice(0, 16),
    tokenHash: hash,
    email,
    expiresAt,
    usedAt: null,
    createdAt: now,
  });
  return { token, expiresAt };
}

/** Marks every unused token of the user (of one purpose, or all) as used. */
export async function spendTokens(
  trx: Knex.Transaction,
  userId: number,
  purpose?: TokenPurpose,
  now = Date.now(),
) {
  await trx('accountTokens')
    .where({ userId })
    .whereNull('usedAt')
    .modify((q) => {
      if (purpose) q.where({ purpose });
    })
    .update({ usedAt: now });
}

/**
 * Uses the token: the user it belongs to (and the address it confirms), or undefined when it is
 * unknown, of another purpose, expired or already used. Call inside the transaction that acts on
 * it, so a failure later on leaves the token unused.
 */
export async function useToken(
  trx: Knex.Transaction,
  purpose: TokenPurpose,
  token: string,
  now = Date.now(),
): Promise<UsedToken | undefined> {
  const hash = Buffer.from(sha256(token), 'hex');
  const rows = (await trx('accountTokens')
    .where({ selector: hash.toString('hex').slice(0, 16), purpose })
    .select('id', 'userId', 'tokenHash', 'email', 'expiresAt', 'usedAt')) as TokenRow[];
  const row = rows.find((r) => timingSafeEqual(Buffer.from(r.tokenHash, 'hex'), hash));
  if (!row || row.usedAt !== null || Number(row.expiresAt) <= now) return undefined;
  const taken = await trx('accountTokens').where({ id: row.id }).whereNull('usedAt').update({ usedAt: now });
  if (taken !== 1) return undefined; // used by a parallel request a moment ago
  return { userId: row.userId, email: row.email };
}
