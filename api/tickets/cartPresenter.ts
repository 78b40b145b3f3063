import { bundlesToOffers } from '../../contract/bundles';
import type { CartItemView } from '../../contract/cart';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import type { CartItem, Competition } from '../../db/models';
import type { CartEntry } from './cartQueries';

export function presentCartItem(
  item: CartItem & { competition?: Competition },
  heldNumbers: number[],
): CartItemView {
  const c = item.competition;
  return {
    id: item.id,
    sessionId: item.guestId, // the contract's name for the guest id
    competitionId: item.competitionId,
    quantity: item.quantity,
    selectedNumbers: item.selectedNumbers,
    heldNumbers,
    reservedAt: iso(item.reservedAt),
    expiresAt: iso(item.expiresAt),
    kept: item.keptAt !== null && item.keptAt !== undefined,
    createdAt: iso(item.createdAt),
    competition: {
      id: item.competitionId,
      title: c?.title ?? '',
      image: c?.image ?? null,
      ticketPrice: c ? penceToPounds(c.ticketPricePence) : 0,
      bundles: bundlesToOffers(c?.bundles),
      endDate: c ? iso(c.endDate) : '',
    },
  };
}

/** A whole cart, as GET /api/cart and the cart:updated push send it. */
export const presentCart = (entries: CartEntry[]): CartItemView[] =>
  entries.map((e) => presentCartItem(e.item, e.heldNumbers));
