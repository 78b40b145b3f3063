import type { Knex } from 'knex';
import { ERROR_CODES } from '../../../contract/errors';
import { lockRows } from '../../../db/locks';
import { CartItem, type Competition } from '../../../db/models';
import { conflict, notFound } from '../../platform/errors';
import { inUnitOfWork } from '../../platform/unitOfWork';
import { type CartOwner, ownedBy } from '../cartQueries';
import { cartChanged } from '../cartRevision';
import { assertMayPlay, openCompetition } from '../holdChecks';
import { liveTickets } from '../liveTickets';
import type { CartChange, ReservationDeps } from '../reservations';

// 'Keep my numbers' (docs/product.md#holds): a minute before a hold runs out the browser offers to
// keep it. The rules, all decided here:
// - once per hold: a second request is refused (409 hold_kept), so nobody sits on numbers for ever;
// - a fresh hold's time from now (RESERVATION_TTL_SECONDS), never past the competition's end;
// - only while the competition takes entries (closed, ended, drawn: 409 closed) and the person may
//   play (a break: 403), the same checks as a new hold;
// - not when every number is taken: others are waiting for a number to come free, and this one
//   is due back to them.
// The numbers stay held by the same person, so no ticket event is sent; the cart's revision moves
// on, so the owner's other tabs get the new time in `cart:updated`.

export const HOLD_KEPT_MESSAGE =
  'These numbers have already been kept once. Check out before the time runs out to keep them.';
export const ALL_TAKEN_MESSAGE =
  'Every number in this competition is taken, so holds cannot be kept longer: others are waiting for numbers to come free.';
export const CLOSING_MESSAGE = 'This competition closes before your numbers could be kept any longer.';

/** Throws when no number of the competition is free (sold or held by an unexpired hold). */
async function assertNotAllTaken(trx: Knex, competition: Competition, now: number) {
  const [row] = (await liveTickets(trx, competition.id, now).count({ n: '*' })) as Array<{
    n: number | string;
  }>;
  if (Number(row?.n ?? 0) >= competition.totalTickets) throw conflict(ALL_TAKEN_MESSAGE);
}

/** POST /api/cart/:id/keep: the hold's time starts again, once. */
export function keepHold(
  deps: ReservationDeps,
  owner: CartOwner,
  itemId: number,
  now = Date.now(),
): Promise<CartChange & { item: CartItem }> {
  return inUnitOfWork(deps, async (uow) => {
    const { trx } = uow;
    const found = (await CartItem.query(trx).modify(ownedBy(owner)).findById(itemId)) as CartItem | undefined;
    if (!found || found.expiresAt <= now) throw notFound('Cart item not found');
    await assertMayPlay(trx, owner.userId, now);
    const competition = await openCompetition(trx, found.competitionId, now);
    await assertNotAllTaken(trx, competition, now);
    // Locked and read again: the sweeper may have released it, or another request kept it, meanwhile.
    const [item] = (await lockRows(
      trx,
      'cartItem',
      CartItem.query(trx).where('id', itemId).where('expiresAt', '>', now),
    )) as CartItem[];
    if (!item) throw notFound('Cart item not found');
    if (item.keptAt !== null) throw conflict(HOLD_KEPT_MESSAGE, undefined, ERROR_CODES.holdKept);
    const until = Math.min(now + deps.ttlSeconds * 1000, competition.endDate);
    if (until <= item.expiresAt) throw conflict(CLOSING_MESSAGE);
    await trx('cartItems').where('id', item.id).update({ expiresAt: until, keptAt: now, updatedAt: now });
    await trx('tickets')
      .where({ cartItemId: item.id, status: 'reserved' })
      .update({ expiresAt: until, updatedAt: now });
    const kept = await CartItem.query(trx).findById(item.id);
    return { item: kept!, changes: [], cartRevision: await cartChanged(uow, owner) };
  });
}
