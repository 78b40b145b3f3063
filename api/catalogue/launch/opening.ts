import type { Knex } from 'knex';
import type { CompetitionUpdateInput } from '../../../contract/admin';
import type { Competition } from '../../../db/models';
import { conflict } from '../../platform/errors';
import { everHeldOrSold } from '../instantWins/list';

// Scheduled launches (docs/product.md#drafts-and-scheduled-launches): a competition opens at
// `startsAt` (or at once without one); its opening is announced once (`opened_at`,
// `competition.opened`: the 'new competition live' e-mail and `competition:opened` to watchers).

export const STARTS_AT_LOCKED = 'The opening time cannot change once a ticket has been held.';

/** Whether an active competition has reached its opening and it was not announced yet. */
export const opensNow = (c: Pick<Competition, 'status' | 'startsAt' | 'openedAt'>, now: number) =>
  c.status === 'active' && c.openedAt === null && (c.startsAt === null || Number(c.startsAt) <= now);

/**
 * An edit's effect on the opening: `startsAt` may change only while no number was ever held (409
 * after); moved into the future, the opening is announced again when it comes.
 */
export async function openingChange(
  trx: Knex.Transaction,
  current: Competition,
  input: CompetitionUpdateInput,
  now: number,
): Promise<{ openedAt?: null }> {
  if (input.startsAt === undefined) return {};
  const before = current.startsAt === null ? null : Number(current.startsAt);
  if (input.startsAt === before) return {};
  if (await everHeldOrSold(trx, current.id))
    throw conflict(STARTS_AT_LOCKED, { fields: { startsAt: STARTS_AT_LOCKED } });
  return input.startsAt !== null && input.startsAt > now ? { openedAt: null } : {};
}
