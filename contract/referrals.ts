import * as v from 'valibot';

// Referrals paid in site credit (docs/product.md#referrals): the customer's link, what it has
// earned, and the referral settings' body. Shared by the server and the web.

/** A referral code as typed or carried in a link: letters and digits, case-insensitive. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9]{4,16}$/;

/** The code a registration may carry (`?ref=` kept from the landing page); an unknown one is ignored. */
export const ReferralCodeSchema = v.optional(
  v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(32, 'That referral code is too long'))),
);

/** GET /api/account/referral. */
export interface ReferralView {
  code: string;
  /** The public link to share: the site's address + /?ref=CODE. */
  url: string;
  /** Accounts registered with this code. */
  referred: number;
  /** Credit earned from them, in pence. */
  rewardedPence: number;
}

/** Why a referral paid nothing, as recorded on it (the admin's customer view shows it). */
export const REFUSAL_REASONS = {
  same_mailbox: 'Both accounts use the same mailbox',
  same_card: 'Both accounts paid with the same card',
  same_address: 'Both accounts have the same address',
  on_break: 'One of them was on a break',
  monthly_cap: "Past the referrer's monthly limit of rewards",
} as const;
export type RefusalReason = keyof typeof REFUSAL_REASONS;

/** One referral as the admin's customer view lists it (the customer referred someone). */
export interface AdminReferralView {
  id: number;
  referredUserId: number;
  referredUsername: string;
  status: 'pending' | 'rewarded' | 'refused';
  refusedReason: RefusalReason | null;
  /** The refusal in words (null unless refused). */
  reason: string | null;
  /** Pounds paid to the referrer (null unless rewarded). */
  reward: number | null;
  /** The referred customer's order that decided it. */
  orderId: number | null;
  createdAt: string;
  decidedAt: string | null;
}

/** The smallest paid order (card money, not site credit) that earns the referrer a reward. */
export const REFERRAL_MIN_ORDER_PENCE = 500;

/** The link a code shares. */
export const referralUrl = (publicUrl: string, code: string) =>
  `${publicUrl.replace(/\/+$/, '')}/?ref=${encodeURIComponent(code)}`;

/** The referral settings' PUT body: the reward in pounds, and rewards per referrer per UK month. */
export const ReferralSettingsSchema = v.object({
  referralReward: v.pipe(
    v.number('The reward must be an amount in pounds'),
    v.minValue(0, 'The reward must be £0 or more'),
    v.maxValue(100, 'The reward must be at most £100'),
    v.check((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'The reward must be in whole pence'),
  ),
  referralRewardsPerMonth: v.pipe(
    v.number('The limit must be a whole number from 0 to 1000'),
    v.integer('The limit must be a whole number from 0 to 1000'),
    v.minValue(0, 'The limit must be a whole number from 0 to 1000'),
    v.maxValue(1000, 'The limit must be a whole number from 0 to 1000'),
  ),
});
export type ReferralSettings = v.InferOutput<typeof ReferralSettingsSchema>;
