import type { AdminOrderDetail, AuditEntryView } from '../../contract/admin';
import { costByNumber, paidPenceOf } from '../../contract/bundles';
import { type CardFacts, cardLabel } from '../../contract/cards';
import {
  type AdminOrderView,
  formatOrderNumber,
  type OrderItemView,
  type OrderView,
  type UserEntryView,
} from '../../contract/checkout';
import { iso } from '../../contract/dates';
import { penceToPounds } from '../../contract/money';
import { mainPrizesOf } from '../../contract/prizes';
import type { Competition, InstantWin, Order, OrderItem, User, UserEntry } from '../../db/models';
import { presentInstantWinPrize } from '../catalogue/instantWins/presenter';
import type { PostalEntrant } from './postal/postalEntrants';

const isoOrNull = (ms: number | null) => (ms === null || ms === undefined ? null : iso(ms));

export type OrderWithItems = Order & {
  items?: OrderItem[];
  user?: User | null;
  instantWins?: InstantWin[];
  /** A free postal entry's postcard (admin views only). */
  postalEntrant?: PostalEntrant | null;
};

export function presentOrderItem(i: OrderItem & { competition?: Competition | null }): OrderItemView {
  const numbers = [...(i.selectedNumbers ?? [])].sort((a, b) => a - b);
  const costs = costByNumber([i]);
  return {
    id: i.id,
    competitionId: i.competitionId,
    title: i.title,
    ticketPrice: penceToPounds(i.ticketPricePence),
    quantity: i.quantity,
    selectedNumbers: numbers,
    numbers,
    // What was paid: with a bundle, less than quantity × ticket price.
    lineTotal: penceToPounds(paidPenceOf(i)),
    saved: penceToPounds(Math.max(0, i.ticketPricePence * i.quantity - paidPenceOf(i))),
    ticketCosts: numbers.map((n) => penceToPounds(costs.get(n) ?? i.ticketPricePence)),
    drawDate: i.competition ? iso(i.competition.endDate) : null,
  };
}

/**
 * The card that paid the order, as the gateway reported it: only once paid (a declined card's
 * facts stay off the order), and only when its brand and last four digits were recorded.
 */
export function cardOf(o: Order): CardFacts | null {
  if (o.paidAt === null || !o.cardBrand || !o.cardLast4) return null;
  return { brand: o.cardBrand, funding: o.cardFunding ?? 'unknown', last4: o.cardLast4 };
}

function paymentMethod(o: Order, card: CardFacts | null): string {
  if (o.paymentProvider === 'credit') return 'Site Credit';
  if (o.paymentProvider === 'postal') return 'Free postal entry';
  // Never 'Credit Card' for a debit card: a card not (yet) known is just 'Card'.
  const cardText = card ? cardLabel(card) : 'Card';
  return o.creditAppliedPence > 0 ? `${cardText} + Site Credit` : cardText;
}

/** The order as its owner sees it (and the confirmation page shows it). */
export function presentOrder(o: OrderWithItems): OrderView {
  const card = cardOf(o);
  return {
    id: o.id,
    orderNumber: formatOrderNumber(o.id),
    userId: o.userId,
    createdAt: iso(o.createdAt),
    paidAt: isoOrNull(o.paidAt),
    status: o.status,
    subtotal: penceToPounds(o.subtotalPence),
    creditApplied: penceToPounds(o.creditAppliedPence),
    total: penceToPounds(o.totalPence),
    currency: o.currency,
    paymentProvider: o.paymentProvider,
    paymentMethod: paymentMethod(o, card),
    card,
    // The contract's 'last card error' of a failed order is its failure message.
    notice: o.notice ?? (o.status === 'failed' ? o.failureMessage : null) ?? null,
    refund: o.refundReason
      ? {
          amount: penceToPounds(o.refundedAt ? o.refundedPence : o.totalPence),
          reason: o.refundReason,
          refundedAt: isoOrNull(o.refundedAt),
        }
      : null,
    items: [...(o.items ?? [])].sort((a, b) => a.id - b.id).map(presentOrderItem),
    ...(o.instantWins
      ? { instantWins: [...o.instantWins].sort((a, b) => a.number - b.number).map(presentInstantWinPrize) }
      : {}),
  };
}

/** The admin's view: the payment reference and who placed it. */
export function presentAdminOrder(o: OrderWithItems): AdminOrderView {
  const u = o.user;
  return {
    ...presentOrder(o),
    paymentIntentId: o.paymentIntentId,
    user: u
      ? { id: u.id, username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName }
      : null,
    postalEntrant: o.postalEntrant ?? null,
  };
}

/** An order as the admin's detail loads it: items, customer and its audit trail. */
export interface AdminOrderRecord {
  order: OrderWithItems;
  auditLog: AuditEntryView[];
  cardRefunds: Array<{
    amountPence: number;
    status: 'owed' | 'sent';
    createdAt: number;
    sentAt: number | null;
  }>;
}

/** The admin's order detail: the admin view plus references, cancellation time and audit trail. */
export const presentAdminOrderDetail = ({
  order: o,
  auditLog,
  cardRefunds,
}: AdminOrderRecord): AdminOrderDetail => ({
  ...presentAdminOrder(o),
  paymentReference: o.paymentIntentId,
  refundReference: o.refundReference,
  cancelledAt: o.cancelledAt ? iso(o.cancelledAt) : null,
  cancellationReason: o.cancellationReason ?? null,
  cardRefunds: cardRefunds.map((r) => ({
    amount: penceToPounds(Number(r.amountPence)),
    status: r.status,
    createdAt: iso(Number(r.createdAt)),
    sentAt: r.sentAt ? iso(Number(r.sentAt)) : null,
  })),
  auditLog,
});

/** A drawn competition's result, as My Entries needs it. */
export interface EntryDraw {
  winningNumber: number;
  drawnAt: number;
  /** The 2nd and later prizes' winning numbers (docs/draws.md "Several prizes"). */
  further?: Array<{ position: number; title: string; winningNumber: number }>;
}

export function presentUserEntry(
  e: UserEntry & { competition?: Competition },
  draw: EntryDraw | undefined,
  instantWins: readonly InstantWin[] = [],
  /** What each number cost on the entry's order (absent: the ticket price). */
  costs?: ReadonlyMap<number, number>,
): UserEntryView {
  const c = e.competition;
  const unit = c?.ticketPricePence ?? 0;
  return {
    id: e.id,
    userId: e.userId,
    competitionId: e.competitionId,
    orderId: e.orderId,
    ticketNumbers: [...(e.ticketNumbers ?? [])].sort((a, b) => a - b),
    purchasedAt: iso(e.purchasedAt),
    paid: penceToPounds((e.ticketNumbers ?? []).reduce((sum, n) => sum + (costs?.get(Number(n)) ?? unit), 0)),
    competition: {
      id: e.competitionId,
      image: c?.image ?? null,
      title: c?.title ?? '',
      description: c?.description ?? '',
      ticketPrice: c ? penceToPounds(c.ticketPricePence) : 0,
      endDate: iso(c?.endDate ?? e.purchasedAt),
      autoWin: c?.autoWin ?? false,
      status: c?.status ?? 'archived',
      draw: draw
        ? {
            winningNumber: Number(draw.winningNumber),
            drawnAt: iso(draw.drawnAt),
            prizes: [
              {
                position: 1,
                title: mainPrizesOf(c ?? { title: '' })[0]!.title,
                winningNumber: Number(draw.winningNumber),
              },
              ...(draw.further ?? []),
            ],
          }
        : null,
    },
    instantWins: instantWins.map(presentInstantWinPrize),
  };
}
