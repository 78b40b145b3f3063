import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { REFERRAL_CODE_PATTERN, type ReferralView, referralUrl } from '../../../contract/referrals';
import { isUniqueViolation } from '../../../db/dialect';

// Each account's referral code and the referrals it records at registration
// (docs/product.md#referrals). Codes are stored in upper case and matched case-insensitively.

// No 0/O or 1/I/L: a code read aloud or copied by hand still works.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

const newCode = () =>
  Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/**
 * The account's code, made on first ask: set only while the column is null, so two first asks
 * agree on one code; a clash with another account's code (UNIQUE) draws again.
 */
export async function referralCodeOf(db: Knex, userId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = (await db('users').where({ id: userId }).first('referralCode')) as
      | { referralCode: string | null }
      | undefined;
    if (!row) throw new Error(`no user ${userId}`);
    if (row.referralCode) return row.referralCode;
    try {
      await db('users').where({ id: userId }).whereNull('referralCode').update({ referralCode: newCode() });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new Error('could not make a unique referral code');
}

/** The live account whose code this is (any case), if any. */
async function referrerOf(db: Knex, code: string): Promise<number | undefined> {
  const clean = code.trim().toUpperCase();
  if (!REFERRAL_CODE_PATTERN.test(clean)) return undefined;
  const row = (await db('users').where({ referralCode: clean }).whereNull('deletedAt').first('id')) as
    | { id: number }
    | undefined;
  return row?.id;
}

/**
 * Records that `referredUserId` registered with `code`: pending until the reward's conditions
 * are met (referralRewards.ts). An unknown code, or the account's own, records nothing and does
 * not stop the registration. Returns the referrer, if one was recorded.
 */
export async function recordReferral(
  db: Knex,
  referredUserId: number,
  code: string | null | undefined,
  now = Date.now(),
): Promise<number | undefined> {
  if (!code) return undefined;
  const referrerId = await referrerOf(db, code);
  if (!referrerId || referrerId === referredUserId) return undefined;
  try {
    await db('referrals').insert({
      referrerUserId: referrerId,
      referredUserId,
      status: 'pending',
      createdAt: now,
    });
  } catch (err) {
    if (isUniqueViolation(err)) return undefined; // already referred: the first referrer keeps it
    throw err;
  }
  return referrerId;
}

/** GET /api/account/referral: the code (made now if new), its link, and what it has brought. */
export async function referralView(db: Knex, publicUrl: string, userId: number): Promise<ReferralView> {
  const code = await referralCodeOf(db, userId);
  const row = (await db('referrals')
    .where({ referrerUserId: userId })
    .select(
      db.raw('count(*) as ??', ['referred']),
      db.raw('sum(case when ?? = ? then ?? else 0 end) as ??', [
        'status',
        'rewarded',
        'reward_pence',
        'rewarded',
      ]),
    )
    .first()) as { referred: number | string; rewarded: number | string | null };
  return {
    code,
    url: referralUrl(publicUrl, code),
    referred: Number(row.referred),
    rewardedPence: Number(row.rewarded ?? 0),
  };
}
