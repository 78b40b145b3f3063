import type { Knex } from 'knex';
import type { Connection } from 'mysql2';
import { driverConnectionOf } from '../../../fastpaths/pinnedConnection';
import type { EventBus } from '../../platform/events';
import type { CartOwner } from '../cartQueries';
import { type CartRead, cartKeyOf } from '../cartRevision';
import type { TicketChange } from '../holdRows';
import { callInOrder, callProcedure, cartOf, numbersOf } from './procedureCall';

// The release half of the hot path: DELETE /api/cart/:id as one prepared CALL of
// `release_cart_item` (db/migrations/051_hold_procedures.ts), writing what removeItem
// (reservations.ts) writes: the line and its holds gone, their history, the version and revision
// bumps, the cart read back; `tickets.released` and `cart.changed` after COMMIT. A line that is not
// the owner's (404) falls back to the general path, which answers.

const REMOVED = 'removed from cart';

export interface HotRelease {
  changes: TicketChange[];
  cart: CartRead;
}

/** The release, or undefined when the general path must answer (no pinned MariaDB connection, 404). */
export async function releaseLineHot(
  events: EventBus,
  db: Knex,
  owner: CartOwner,
  itemId: number,
  now = Date.now(),
): Promise<HotRelease | undefined> {
  const connection = driverConnectionOf(db) as Connection | undefined;
  if (!connection) return undefined;
  const params = [itemId, owner.guestId, owner.userId, cartKeyOf(owner), REMOVED, now];
  const changes: TicketChange[] = [];
  const answer = await callInOrder(
    events,
    null,
    () => callProcedure(connection, 'release_cart_item', params),
    ({ status }) => status.status === 'released',
    ({ status }, emit) => {
      const numbers = numbersOf(status.numbers);
      if (numbers.length) {
        const change = {
          competitionId: Number(status.competitionId),
          version: Number(status.version),
          numbers,
        };
        changes.push(change);
        emit('tickets.released', change);
      }
      emit('cart.changed', { owner, revision: Number(status.revision) });
    },
  );
  if (!answer) return undefined;
  return { changes, cart: cartOf(answer.sets, Number(answer.status.revision)) };
}
