import type { Knex } from 'knex';
import { iso } from '../../../contract/dates';
import {
  type SelfExclusionPeriod,
  type SelfExclusionView,
  selfExclusionEnd,
} from '../../../contract/protection';
import { lockRows } from '../../../db/locks';
import { notFound } from '../../platform/errors';
import { inUnitOfWork, type UnitOfWorkDeps } from '../../platform/unitOfWork';
import { cartChanged } from '../../tickets/cartRevision';
import { releaseAccountHolds } from '../../tickets/holdRows';

// Time-out and self-exclusion (docs/product.md#player-protection). Until it ends the account can
// sign in and see its entries, but holds, checkout and card confirmation answer 403
// (tickets/holdChecks.ts assertMayPlay) and no marketing is sent (platform/email/consent.ts).
// Nobody can end it early: there is no route that shortens it, and a new one never shortens it.

const view = (until: number | null, now: number): SelfExclusionView => ({
  selfExcludedUntil: until !== null && until > now ? iso(until) : null,
});

export async function readSelfExclusion(
  db: Knex,
  userId: number,
  now = Date.now(),
): Promise<SelfExclusionView> {
  const row = (await db('users').where({ id: userId }).first('selfExcludedUntil')) as
    | { selfExcludedUntil: number | string | null }
    | undefined;
  if (!row) throw notFound('User not found');
  return view(row.selfExcludedUntil === null ? null : Number(row.selfExcludedUntil), now);
}

/**
 * POST /api/account/self-exclusion: starts (or lengthens) a break and releases the account's
 * holds in the same unit of work; `tickets.released` and `cart.changed` go out after COMMIT.
 */
export async function startSelfExclusion(
  deps: UnitOfWorkDeps,
  userId: number,
  period: SelfExclusionPeriod,
  now = Date.now(),
): Promise<SelfExclusionView> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const row = (await lockRows(
      trx,
      'user',
      trx('users').where({ id: userId }).whereNull('deletedAt').first('selfExcludedUntil'),
    )) as { selfExcludedUntil: number | string | null } | undefined;
    if (!row) throw notFound('User not found');
    const current = Number(row.selfExcludedUntil ?? 0);
    const until = Math.max(current, selfExclusionEnd(period, now));
    await trx('users')
      .where({ id: userId })
      .update({
        ...(current > now ? {} : { selfExcludedAt: now }),
        selfExcludedUntil: until,
        updatedAt: now,
      });
    const { items } = await releaseAccountHolds(uow, userId, 'self-exclusion');
    if (items.length) await cartChanged(uow, { guestId: '', userId });
    return view(until, now);
  });
}
