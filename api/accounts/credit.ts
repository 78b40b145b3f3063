import type { Knex } from 'knex';
import { CreditTransaction, PromoConfig } from '../../db/models';

interface LedgerEntry {
  amountPence: number;
  description: string;
  promoConfigId?: number | null;
  orderId?: number | null;
  /** A referral reward's referral (UNIQUE in the ledger: it can be paid once). */
  referralId?: number | null;
}

/**
 * Adds credit: one ledger row and the balance moved by the same amount in the caller's
 * transaction, so users.site_credit_pence always equals the ledger sum.
 */
export async function addCredit(trx: Knex.Transaction, userId: number, entry: LedgerEntry, now = Date.now()) {
  await CreditTransaction.query(trx).insert({
    userId,
    type: 'credit',
    amountPence: entry.amountPence,
    description: entry.description,
    promoConfigId: entry.promoConfigId ?? null,
    orderId: entry.orderId ?? null,
    ...(entry.referralId ? { referralId: entry.referralId } : {}),
    createdAt: now,
  });
  await trx('users').where({ id: userId }).increment('siteCreditPence', entry.amountPence);
}

/**
 * Spends credit: the balance goes down only if it covers the amount (one conditional UPDATE, so
 * two spends can never take it below zero), and a debit row records it. False when it does not
 * cover the amount; nothing is written then.
 */
export async function spendCredit(
  trx: Knex.Transaction,
  userId: number,
  entry: LedgerEntry,
  now = Date.now(),
): Promise<boolean> {
  const changed = await trx('users')
    .where({ id: userId })
    .where('siteCreditPence', '>=', entry.amountPence)
    .decrement('siteCreditPence', entry.amountPence);
  if (changed !== 1) return false;
  await CreditTransaction.query(trx).insert({
    userId,
    type: 'debit',
    amountPence: entry.amountPence,
    description: entry.description,
    promoConfigId: entry.promoConfigId ?? null,
    orderId: entry.orderId ?? null,
    createdAt: now,
  });
  return true;
}

/**
 * Takes one of the promo's uses with one conditional UPDATE, so concurrent grants can never
 * overrun totalMaxUses; false when none is left.
 */
async function claimPromoUse(trx: Knex.Transaction, promoId: number): Promise<boolean> {
  const taken: number = await trx('promoConfigs')
    .where({ id: promoId })
    .where((q) => q.whereNull('totalMaxUses').orWhereRaw('?? < ??', ['current_uses', 'total_max_uses']))
    .increment('currentUses', 1);
  return taken === 1;
}

/**
 * The promos a new account is given now: switched on, auto-applied, for new users (or all), inside
 * their validity window, with credit and uses left. The sign-up offer on screen is read from the
 * same query, so it is shown exactly while accounts get it (docs/product.md#sign-up-offer).
 */
export function liveSignUpPromos(db: Knex, now: number) {
  return PromoConfig.query(db)
    .where({ isActive: true, autoApply: true })
    .whereIn('targetUserType', ['new_user', 'all'])
    .where('validFrom', '<=', now)
    .where((q) => q.whereNull('validUntil').orWhere('validUntil', '>', now))
    .where('creditAmountPence', '>', 0)
    .where((q) => q.whereNull('totalMaxUses').orWhereRaw('?? < ??', ['current_uses', 'total_max_uses']))
    .orderBy('id');
}

/**
 * Claims one of the promo's uses and, when one was left, adds its credit as a ledger row; false
 * when the promo was fully claimed.
 */
export async function grantPromo(
  trx: Knex.Transaction,
  userId: number,
  promo: PromoConfig,
  description: string,
  now = Date.now(),
): Promise<boolean> {
  if (!(await claimPromoUse(trx, promo.id))) return false;
  await addCredit(
    trx,
    userId,
    { amountPence: promo.creditAmountPence, description, promoConfigId: promo.id },
    now,
  );
  return true;
}

/**
 * Grants every active auto-apply promo that targets new users (or all users) once, when the
 * account's e-mail address is first confirmed (security/emailVerification.ts). The use counter is taken with one conditional UPDATE, so concurrent
 * registrations can never overrun totalMaxUses (and a CHECK constraint backs that up).
 */
export async function grantSignUpPromos(
  trx: Knex.Transaction,
  userId: number,
  now = Date.now(),
): Promise<number> {
  const promos = await liveSignUpPromos(trx, now);
  let granted = 0;
  for (const promo of promos) {
    const used = await CreditTransaction.query(trx).where({ userId, promoConfigId: promo.id }).resultSize();
    if (used >= promo.maxUsesPerUser) continue;
    if (!(await grantPromo(trx, userId, promo, promo.name, now))) continue; // the cap was reached by someone else first
    granted += promo.creditAmountPence;
  }
  return granted;
}

export async function listCreditTransactions(db: Knex, userId: number): Promise<CreditTransaction[]> {
  return CreditTransaction.query(db)
    .where({ userId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
}
