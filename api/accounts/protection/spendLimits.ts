import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import { ERROR_CODES } from '../../../contract/errors';
import {
  LIMIT_RAISE_DELAY_MS,
  type SpendLimitsView,
  spendLimitMessage,
  ukMonthStart,
} from '../../../contract/protection';
import { lockRows } from '../../../db/locks';
import { HttpError, notFound } from '../../platform/errors';

// Monthly spend limits (docs/product.md#player-protection). What counts as spent: the price of
// the entries (card and site credit alike) of the customer's paid orders, plus orders whose
// payment is in flight (pending with a payment started), created since midnight UK time on the
// 1st of this month. A lower limit applies at once; a higher one, or none, after 24 hours.

export interface LimitRow {
  monthlySpendLimitPence: number | null;
  pendingSpendLimitPence: number | null;
  pendingSpendLimitAt: number | null;
}

const LIMIT_COLUMNS = ['monthlySpendLimitPence', 'pendingSpendLimitPence', 'pendingSpendLimitAt'] as const;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The limit in force at `now` (a pending change whose time has come has taken over) and what still waits. */
export function limitsAt(row: LimitRow, now: number) {
  const pendingAt = num(row.pendingSpendLimitAt);
  const pendingValue = num(row.pendingSpendLimitPence);
  if (pendingAt !== null && pendingAt <= now) return { limit: pendingValue, pending: null };
  return {
    limit: num(row.monthlySpendLimitPence),
    pending: pendingAt === null ? null : { value: pendingValue, at: pendingAt },
  };
}

/**
 * Spent this UK calendar month. `inFlight`: also count orders whose payment has started and may
 * still be taken; checkout leaves them out, since it replaces every open order of the customer.
 */
export async function spentThisMonth(
  db: Knex,
  userId: number,
  now: number,
  inFlight: boolean,
): Promise<number> {
  const row = (await db('orders')
    .where({ userId })
    .where('createdAt', '>=', ukMonthStart(now))
    .where((q) => {
      q.where('status', 'completed');
      if (inFlight) q.orWhere((p) => p.where('status', 'pending').whereNotNull('paymentIntentId'));
    })
    .sum({ total: 'subtotalPence' })
    .first()) as { total: number | string | null } | undefined;
  return Number(row?.total ?? 0);
}

export async function readSpendLimits(db: Knex, userId: number, now = Date.now()): Promise<SpendLimitsView> {
  const row = (await db('users')
    .where({ id: userId })
    .first(...LIMIT_COLUMNS)) as LimitRow | undefined;
  if (!row) throw notFound('User not found');
  const { limit, pending } = limitsAt(row, now);
  return {
    monthlySpendLimitPence: limit,
    pending: pending && { monthlySpendLimitPence: pending.value, effectiveAt: iso(pending.at) },
    spentThisMonthPence: await spentThisMonth(db, userId, now, true),
  };
}

/** PUT /api/account/limits: lower (or equal) at once, anything else pending for 24 hours. */
export async function setSpendLimit(
  db: Knex,
  userId: number,
  value: number | null,
  now = Date.now(),
): Promise<SpendLimitsView> {
  await db.transaction(async (trx) => {
    const row = (await lockRows(
      trx,
      'user',
      trx('users')
        .where({ id: userId })
        .whereNull('deletedAt')
        .first(...LIMIT_COLUMNS),
    )) as LimitRow | undefined;
    if (!row) throw notFound('User not found');
    const { limit, pending } = limitsAt(row, now);
    const lowerOrSame = value !== null && (limit === null || value <= limit);
    const patch = lowerOrSame
      ? { monthlySpendLimitPence: value, pendingSpendLimitPence: null, pendingSpendLimitAt: null }
      : {
          monthlySpendLimitPence: limit,
          pendingSpendLimitPence: value,
          // Asking again for the same raise does not restart its 24 hours.
          pendingSpendLimitAt: pending && pending.value === value ? pending.at : now + LIMIT_RAISE_DELAY_MS,
        };
    await trx('users')
      .where({ id: userId })
      .update({ ...patch, updatedAt: now });
  });
  return readSpendLimits(db, userId, now);
}

/**
 * Checkout's check, inside its transaction after the user row is locked (so parallel checkouts of
 * one customer queue here): 400 when paid orders this month plus this order pass the limit.
 */
export async function assertWithinSpendLimit(
  trx: Knex.Transaction,
  userId: number,
  orderPence: number,
  now: number,
): Promise<void> {
  const row = (await trx('users')
    .where({ id: userId })
    .first(...LIMIT_COLUMNS)) as LimitRow;
  const { limit } = limitsAt(row, now);
  if (limit === null) return;
  const spent = await spentThisMonth(trx, userId, now, false);
  if (spent + orderPence > limit) {
    throw new HttpError(400, ERROR_CODES.spendLimit, spendLimitMessage(limit, limit - spent), {
      limitPence: limit,
      leftPence: Math.max(limit - spent, 0),
    });
  }
}
