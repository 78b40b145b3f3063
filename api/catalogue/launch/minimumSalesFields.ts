import type { Knex } from 'knex';
import type { CompetitionUpdateInput } from '../../../contract/admin';
import { MINIMUM_LOCKED, MINIMUM_OVER_TOTAL } from '../../../contract/minimumSales';
import type { Competition } from '../../../db/models';
import { badRequest, conflict } from '../../platform/errors';

// The minimum-sales fields of a competition (docs/product.md#minimum-sales-and-cancellation): the
// edits the rule allows (the detail carries them through contract/minimumSales.ts minimumSalesOf). Applying the rule at the
// end date is api/orders/bulkRefund/minimumSales.ts.

const CANCELLED_FINAL = "This competition has been cancelled and refunded, so it can't be changed.";

/**
 * 400 when the minimum is above the tickets there are; 409 for any edit of a cancelled competition,
 * and for a change of the rule once it has extended the competition (entrants were told it).
 */
export function assertMinimumSalesEdit(
  current: Pick<
    Competition,
    'status' | 'minTicketsSold' | 'extendByDays' | 'maxExtensions' | 'extensionsUsed' | 'totalTickets'
  > | null,
  input: Pick<CompetitionUpdateInput, 'minTicketsSold' | 'extendByDays' | 'maxExtensions' | 'totalTickets'>,
): void {
  if (current?.status === 'cancelled') throw conflict(CANCELLED_FINAL);
  const min = input.minTicketsSold === undefined ? (current?.minTicketsSold ?? null) : input.minTicketsSold;
  const total = input.totalTickets ?? current?.totalTickets;
  if (min !== null && total !== undefined && min > total)
    throw badRequest(MINIMUM_OVER_TOTAL, { fields: { minTicketsSold: MINIMUM_OVER_TOTAL } });
  if (!current || !Number(current.extensionsUsed)) return;
  const changed =
    (input.minTicketsSold !== undefined && input.minTicketsSold !== current.minTicketsSold) ||
    (input.extendByDays !== undefined && input.extendByDays !== Number(current.extendByDays)) ||
    (input.maxExtensions !== undefined && input.maxExtensions !== Number(current.maxExtensions));
  if (changed) throw conflict(MINIMUM_LOCKED, { fields: { minTicketsSold: MINIMUM_LOCKED } });
}

/** A cancelled competition's bulk refund job (api/orders/bulkRefund/), for the admin detail; null before. */
export async function refundJobIdOf(db: Knex, competitionId: number): Promise<number | null> {
  const row = await db('bulkRefundJobs').where({ competitionId }).first('id');
  return row ? Number(row.id) : null;
}
