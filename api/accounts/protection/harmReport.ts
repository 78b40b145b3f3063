import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import type {
  HarmAction,
  HarmReportRow,
  HarmReportView,
  HarmReviewView,
  HarmThresholds,
} from '../../../contract/protection';
import { type Actor, writeAudit } from '../../platform/auditLog';
import { notFound } from '../../platform/errors';
import { type LimitRow, limitsAt } from './spendLimits';

// Harm monitoring (docs/product.md#harm-report): customers whose paid spending in the last 24 hours
// or 30 days reaches the site's thresholds, with their limits, breaks and the operator's reviews.

const DAY_MS = 24 * 60 * 60 * 1000;
export const HARM_SETTINGS = { spend24hPence: 'harm_spend_24h_pence', spend30dPence: 'harm_spend_30d_pence' };
/** Until an operator sets them: £100 in a day, £500 in 30 days. */
export const DEFAULT_HARM_THRESHOLDS: HarmThresholds = { spend24hPence: 10_000, spend30dPence: 50_000 };

export async function harmThresholds(db: Knex): Promise<HarmThresholds> {
  const rows = (await db('siteSettings')
    .whereIn('key', Object.values(HARM_SETTINGS))
    .select('key', 'value')) as Array<{ key: string; value: string }>;
  const read = (field: keyof HarmThresholds) => {
    const n = Number(rows.find((r) => r.key === HARM_SETTINGS[field])?.value);
    return Number.isInteger(n) && n > 0 ? n : DEFAULT_HARM_THRESHOLDS[field];
  };
  return { spend24hPence: read('spend24hPence'), spend30dPence: read('spend30dPence') };
}

/** PUT /api/admin/harm-report/thresholds; audited. */
export async function setHarmThresholds(db: Knex, actor: Actor, next: HarmThresholds, now = Date.now()) {
  return db.transaction(async (trx) => {
    const before = await harmThresholds(trx);
    for (const field of Object.keys(HARM_SETTINGS) as Array<keyof HarmThresholds>) {
      await trx('siteSettings')
        .insert({ key: HARM_SETTINGS[field], value: String(next[field]), createdAt: now, updatedAt: now })
        .onConflict('key')
        .merge(['value', 'updatedAt']);
    }
    await writeAudit(
      trx,
      actor,
      'setting.harm_thresholds',
      { type: 'setting', id: 'harm_thresholds' },
      before,
      next,
      now,
    );
    return next;
  });
}

interface ReviewRow {
  id: number;
  userId: number;
  action: HarmAction;
  note: string;
  adminName: string | null;
  createdAt: number;
}

const presentReview = (r: ReviewRow): HarmReviewView => ({
  id: r.id,
  action: r.action,
  note: r.note,
  adminName: r.adminName,
  createdAt: iso(r.createdAt),
});

/** GET /api/admin/harm-report: highest 30-day spend first. */
export async function harmReport(db: Knex, now = Date.now()): Promise<HarmReportView> {
  const thresholds = await harmThresholds(db);
  const dayAgo = now - DAY_MS;
  const spenders = (await db('orders')
    .join('users', 'users.id', 'orders.userId')
    .where('orders.status', 'completed')
    .where('orders.createdAt', '>=', now - 30 * DAY_MS)
    .whereNull('users.deletedAt')
    .groupBy('users.id')
    .select('users.id as userId')
    .sum({ spent30d: 'orders.subtotalPence' })
    .select(
      db.raw('SUM(CASE WHEN ?? >= ? THEN ?? ELSE 0 END) AS ??', [
        'orders.createdAt',
        dayAgo,
        'orders.subtotalPence',
        'spent24h',
      ]),
    )
    .havingRaw('SUM(CASE WHEN ?? >= ? THEN ?? ELSE 0 END) >= ? OR SUM(??) >= ?', [
      'orders.createdAt',
      dayAgo,
      'orders.subtotalPence',
      thresholds.spend24hPence,
      'orders.subtotalPence',
      thresholds.spend30dPence,
    ])) as Array<{ userId: number; spent30d: number | string; spent24h: number | string }>;
  if (!spenders.length) return { thresholds, rows: [] };
  const ids = spenders.map((s) => s.userId);
  const users = (await db('users')
    .whereIn('id', ids)
    .select(
      'id',
      'username',
      'email',
      'monthlySpendLimitPence',
      'pendingSpendLimitPence',
      'pendingSpendLimitAt',
      'selfExcludedUntil',
    )) as Array<LimitRow & { id: number; username: string; email: string; selfExcludedUntil: number | null }>;
  const reviews = (await db('harmReviews as h')
    .leftJoin('users as a', 'a.id', 'h.adminId')
    .whereIn('h.userId', ids)
    .orderBy('h.createdAt', 'desc')
    .orderBy('h.id', 'desc')
    .select(
      'h.id',
      'h.userId',
      'h.action',
      'h.note',
      'a.username as adminName',
      'h.createdAt',
    )) as ReviewRow[];
  const rows = spenders.map((s): HarmReportRow => {
    const u = users.find((x) => x.id === s.userId)!;
    const { limit, pending } = limitsAt(u, now);
    const until = Number(u.selfExcludedUntil ?? 0);
    return {
      userId: u.id,
      username: u.username,
      email: u.email,
      spent24hPence: Number(s.spent24h),
      spent30dPence: Number(s.spent30d),
      monthlySpendLimitPence: limit,
      pendingSpendLimit: pending && { monthlySpendLimitPence: pending.value, effectiveAt: iso(pending.at) },
      selfExcludedUntil: until > now ? iso(until) : null,
      reviews: reviews.filter((r) => r.userId === u.id).map(presentReview),
    };
  });
  return { thresholds, rows: rows.sort((a, b) => b.spent30dPence - a.spent30dPence || a.userId - b.userId) };
}

/** POST /api/admin/harm-report/:userId/reviews: the operator's note and action, audited. */
export async function addHarmReview(
  db: Knex,
  actor: Actor,
  userId: number,
  input: { action: HarmAction; note: string },
  now = Date.now(),
): Promise<HarmReviewView> {
  return db.transaction(async (trx) => {
    const user = await trx('users').where({ id: userId }).whereNull('deletedAt').first('id');
    if (!user) throw notFound('User not found');
    const [id] = await trx('harmReviews').insert({ userId, adminId: actor.id, ...input, createdAt: now });
    const review = { id: Number(id), userId, ...input, adminName: actor.username, createdAt: now };
    await writeAudit(
      trx,
      actor,
      'user.harm_review',
      { type: 'user', id: userId },
      null,
      { action: input.action, note: input.note },
      now,
    );
    return presentReview(review);
  });
}
