import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import { penceToPounds } from '../../../contract/money';
import { ukMonthStart } from '../../../contract/protection';
import {
  type AdminReferralView,
  REFERRAL_MIN_ORDER_PENCE,
  REFUSAL_REASONS,
  type RefusalReason,
} from '../../../contract/referrals';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { lockRows } from '../../../db/locks';
import { type BreakColumns, breakColumns, breakEndOf } from '../../platform/personBreak';
import { readSiteSetting } from '../../platform/settings/promoter';
import { addCredit } from '../credit';
import { normaliseMailbox } from '../security/mailbox';

// The referrer's reward (docs/product.md#referrals): referralRewardPence of site credit, once per
// referred account, when that account has confirmed its address and paid (by card, not credit)
// for an order of at least £5. Settled after COMMIT of each of the two events (e-mail
// confirmation, order fulfilment) in its own transaction, which starts by locking both people's
// rows: whichever event commits second settles it, and two settles of one referral take turns.
// Its first statement is that locking read, so every read after it (on MariaDB, a snapshot taken
// then) sees both events committed. The referral moves from 'pending' only once (a conditional
// UPDATE), and credit_transactions.referral_id is UNIQUE: a second reward cannot be written.

interface Person extends BreakColumns {
  id: number;
  email: string;
  emailVerifiedAt: number | string | null;
  addressLine1: string | null;
  addressPostcode: string | null;
  deletedAt: number | string | null;
}

/** An address as compared: its first line and postcode, letters and digits only, in lower case. */
const addressKey = (p: Person) =>
  p.addressLine1 && p.addressPostcode
    ? `${p.addressLine1}|${p.addressPostcode}`.toLowerCase().replace(/[^a-z0-9|]/g, '')
    : null;

/** Whether any card that paid one's orders also paid the other's (the gateway's fingerprints). */
async function shareACard(trx: Knex, a: number, b: number): Promise<boolean> {
  const row = await trx('orders as x')
    .join('orders as y', 'y.cardFingerprint', 'x.cardFingerprint')
    .where('x.userId', a)
    .where('y.userId', b)
    .whereNotNull('x.cardFingerprint')
    .first('x.id');
  return Boolean(row);
}

/** The referred account's first completed order that paid at least £5 by card, if any. */
async function qualifyingOrder(trx: Knex, userId: number): Promise<number | undefined> {
  const row = (await trx('orders')
    .where({ userId, status: 'completed' })
    .where('totalPence', '>=', REFERRAL_MIN_ORDER_PENCE)
    .orderBy([{ column: 'paidAt' }, { column: 'id' }])
    .first('id')) as { id: number } | undefined;
  return row?.id;
}

/** Rewards paid to the referrer this UK calendar month. */
async function rewardsThisMonth(trx: Knex, referrerId: number, now: number): Promise<number> {
  const row = (await trx('referrals')
    .where({ referrerUserId: referrerId, status: 'rewarded' })
    .where('decidedAt', '>=', ukMonthStart(now))
    .count({ n: '*' })
    .first()) as { n: number | string };
  return Number(row.n);
}

/** Why this referral earns nothing, or null when it earns the reward. */
async function refusalOf(
  trx: Knex,
  referrer: Person,
  referred: Person,
  perMonth: number,
  now: number,
): Promise<RefusalReason | null> {
  if (normaliseMailbox(referrer.email) === normaliseMailbox(referred.email)) return 'same_mailbox';
  if (await shareACard(trx, referrer.id, referred.id)) return 'same_card';
  const home = addressKey(referred);
  if (home !== null && home === addressKey(referrer)) return 'same_address';
  if (breakEndOf(referrer) > now || breakEndOf(referred) > now) return 'on_break';
  if ((await rewardsThisMonth(trx, referrer.id, now)) >= perMonth) return 'monthly_cap';
  return null;
}

export type Settled = 'rewarded' | RefusalReason | 'waiting' | 'none';

/**
 * Settles the referral of `referredUserId` if it is pending and both conditions are now met:
 * the reward as a ledger row, or the reason there is none. Idempotent; safe to run concurrently.
 */
export async function settleReferral(db: Knex, referredUserId: number, now = Date.now()): Promise<Settled> {
  const pending = (await db('referrals').where({ referredUserId, status: 'pending' }).first()) as
    | { id: number; referrerUserId: number }
    | undefined;
  if (!pending) return 'none';
  const ids = [pending.referrerUserId, referredUserId].sort((a, b) => a - b);
  return db.transaction(async (trx) => {
    await lockRows(trx, 'user', trx('users').whereIn('id', ids).orderBy('id').select('id'));
    const people = (await trx('users')
      .whereIn('users.id', ids)
      .select(
        'users.id',
        'users.email',
        'users.emailVerifiedAt',
        'users.addressLine1',
        'users.addressPostcode',
        'users.deletedAt',
        ...breakColumns(trx),
      )) as Person[];
    const referrer = people.find((p) => p.id === pending.referrerUserId);
    const referred = people.find((p) => p.id === referredUserId);
    const current = (await trx('referrals').where({ id: pending.id }).first('status')) as { status: string };
    if (current.status !== 'pending' || !referrer || !referred) return 'none';
    if (referrer.deletedAt !== null || referred.deletedAt !== null) return 'waiting';
    if (referred.emailVerifiedAt === null) return 'waiting';
    const orderId = await qualifyingOrder(trx, referredUserId);
    if (orderId === undefined) return 'waiting';
    const settings = await readSiteSetting(trx, SITE_SETTINGS.referrals);
    const refused = await refusalOf(trx, referrer, referred, settings.referralRewardsPerMonth, now);
    const decided = trx('referrals').where({ id: pending.id, status: 'pending' });
    if (refused) {
      await decided.update({ status: 'refused', refusedReason: refused, orderId, decidedAt: now });
      return refused;
    }
    const changed = await decided.update({
      status: 'rewarded',
      rewardPence: settings.referralRewardPence,
      orderId,
      decidedAt: now,
    });
    if (changed !== 1) return 'none';
    if (settings.referralRewardPence > 0) {
      await addCredit(
        trx,
        referrer.id,
        { amountPence: settings.referralRewardPence, description: 'Referral reward', referralId: pending.id },
        now,
      );
    }
    return 'rewarded';
  });
}

/**
 * Settles the pending referrals of a referrer that look ready (the referred address confirmed and
 * an order of £5 or more paid): a settle lost to a crash between an event's COMMIT and its settle
 * is made good when the referrer next looks at their link.
 */
export async function settleReferralsOf(db: Knex, referrerUserId: number, now = Date.now()): Promise<void> {
  const ready = (await db('referrals as r')
    .join('users as u', 'u.id', 'r.referredUserId')
    .where({ 'r.referrerUserId': referrerUserId, 'r.status': 'pending' })
    .whereNotNull('u.emailVerifiedAt')
    .whereExists((q) =>
      q
        .from('orders as o')
        .whereRaw('?? = ??', ['o.user_id', 'r.referred_user_id'])
        .where('o.status', 'completed')
        .where('o.totalPence', '>=', REFERRAL_MIN_ORDER_PENCE),
    )
    .orderBy('r.id')
    .limit(50)
    .select('r.referredUserId')) as Array<{ referredUserId: number }>;
  for (const { referredUserId } of ready) await settleReferral(db, referredUserId, now);
}

/** A customer's referrals as the admin's customer view shows them: who, state, and why not paid. */
export async function referralsOf(db: Knex, userId: number): Promise<AdminReferralView[]> {
  const rows = (await db('referrals as r')
    .join('users as u', 'u.id', 'r.referredUserId')
    .where('r.referrerUserId', userId)
    .orderBy('r.id', 'desc')
    .limit(100)
    .select(
      'r.id',
      'r.referredUserId',
      'u.username as referredUsername',
      'r.status',
      'r.refusedReason',
      'r.rewardPence',
      'r.orderId',
      'r.createdAt',
      'r.decidedAt',
    )) as Array<Record<string, unknown>>;
  return rows.map((r) => {
    const refusedReason = (r.refusedReason as RefusalReason | null) ?? null;
    return {
      id: Number(r.id),
      referredUserId: Number(r.referredUserId),
      referredUsername: String(r.referredUsername),
      status: r.status as AdminReferralView['status'],
      refusedReason,
      reason: refusedReason ? REFUSAL_REASONS[refusedReason] : null,
      reward: r.rewardPence === null ? null : penceToPounds(Number(r.rewardPence)),
      orderId: r.orderId === null ? null : Number(r.orderId),
      createdAt: iso(Number(r.createdAt)),
      decidedAt: r.decidedAt === null ? null : iso(Number(r.decidedAt)),
    };
  });
}
