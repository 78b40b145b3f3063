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
import { bindBreakToMailbox, type MailboxKeyOf } from './exclusionRegister';

// Time-out and self-exclusion (docs/product.md#player-protection). Until it ends the account can
// sign in and see its entries, but holds, checkout and card confirmation answer 403
// (tickets/holdChecks.ts assertMayPlay) and no marketing is sent (platform/email/consent.ts).
// Nobody can end it early: there is no route that shortens it, and a new one never shortens it.
// It binds the person: the exclusion register (exclusionRegister.ts) carries it to every account
// of the same mailbox, to a deleted account's return and to postcards.

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
 * POST /api/account/self-exclusion: starts (or lengthens) a break, records it on the exclusion
 * register for the account's mailbox, and releases the holds of every account of that mailbox in
 * the same unit of work; `tickets.released` and `cart.changed` go out after COMMIT.
 */
export async function startSelfExclusion(
  deps: UnitOfWorkDeps,
  keyOf: MailboxKeyOf,
  userId: number,
  period: SelfExclusionPeriod,
  now = Date.now(),
): Promise<SelfExclusionView> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const row = (await lockRows(
      trx,
      'user',
      trx('users').where({ id: userId }).whereNull('deletedAt').first('selfExcludedUntil', 'email'),
    )) as { selfExcludedUntil: number | string | null; email: string } | undefined;
    if (!row) throw notFound('User not found');
    const current = Number(row.selfExcludedUntil ?? 0);
    const until = Math.max(current, selfExclusionEnd(period, now));
    const keyHash = keyOf(row.email);
    await trx('users')
      .where({ id: userId })
      .update({
        ...(current > now ? {} : { selfExcludedAt: now }),
        selfExcludedUntil: until,
        mailboxKey: keyHash,
        updatedAt: now,
      });
    await bindBreakToMailbox(uow, { userId, keyHash, endsAt: until }, now);
    return view(until, now);
  });
}
