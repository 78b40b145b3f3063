import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import { type PlayStateView, ukMonthStart } from '../../../contract/protection';
import { notFound } from '../../platform/errors';
import { type BreakColumns, breakColumns, breakEndOf } from '../../platform/personBreak';
import { type LimitRow, limitsAt, spentThisMonth } from './spendLimits';

// What stops a customer entering now (issue 39 §7): their break (the person's, as the holds read
// it) and their spend limit (as checkout counts it), so the competition page and the cart disable
// Buy Now and checkout up front with one banner saying why and until when.

const DAY_MS = 24 * 60 * 60 * 1000;

/** GET /api/account/play-state. */
export async function readPlayState(db: Knex, userId: number, now = Date.now()): Promise<PlayStateView> {
  const row = (await db('users')
    .where({ id: userId })
    .first('monthlySpendLimitPence', 'pendingSpendLimitPence', 'pendingSpendLimitAt', ...breakColumns(db))) as
    | (LimitRow & BreakColumns)
    | undefined;
  if (!row) throw notFound('User not found');
  const breakEnd = breakEndOf(row);
  const { limit, pending } = limitsAt(row, now);
  let spendLimit: PlayStateView['spendLimit'] = null;
  if (limit !== null) {
    // Checkout's count: paid orders only, as it replaces any open order of the customer.
    const spent = await spentThisMonth(db, userId, now, false);
    const nextMonth = ukMonthStart(ukMonthStart(now) + 32 * DAY_MS);
    const raise = pending && (pending.value === null || pending.value > limit) ? pending.at : Infinity;
    spendLimit = {
      limitPence: limit,
      leftPence: Math.max(limit - spent, 0),
      moreFrom: iso(Math.min(nextMonth, raise)),
    };
  }
  return { onBreakUntil: breakEnd > now ? iso(breakEnd) : null, spendLimit };
}
