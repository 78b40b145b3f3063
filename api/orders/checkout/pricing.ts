import { createHash } from 'node:crypto';
import { type Bundle, priceLines } from '../../../contract/bundles';
import {
  belowCardMinimum,
  CARD_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_MESSAGE,
  CREDIT_MINIMUM_SPEND_PENCE,
  type CreatePaymentIntentInput,
  creditToApply,
} from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import type { CartItem, Competition, Order } from '../../../db/models';
import { badRequest, conflict, HttpError } from '../../platform/errors';
import type { CheckoutDeps } from '../payment';

// Checkout's pricing: which cart lines can be paid for, what they cost, the credit applied, who
// takes the rest, and the fingerprint that recognises the same cart again.

const titlesOf = (items: Array<{ title: string }>) => {
  const titles = [...new Set(items.map((i) => `"${i.title}"`))];
  return titles.length === 1
    ? titles[0]!
    : `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
};

export interface Line {
  cartItemId: number;
  competitionId: number;
  title: string;
  ticketPricePence: number;
  numbers: number[];
  bundles: Bundle[] | null;
}

/** The bundles column as a plain knex read returns it (JSON text) or the model does (parsed). */
const bundlesOf = (c: Competition): Bundle[] | null => {
  const raw = c.bundles as unknown;
  return typeof raw === 'string' ? (JSON.parse(raw) as Bundle[] | null) : ((raw as Bundle[] | null) ?? null);
};

/**
 * The cart as order lines; 409 naming the items whose hold has run out (swept or not: it is not
 * the customer's any more) or whose competition is closed.
 */
export function payableLines(
  items: CartItem[],
  competitions: Map<number, Competition>,
  held: Map<number, number[]>,
  now: number,
): Line[] {
  const titleOf = (i: CartItem) =>
    competitions.get(i.competitionId)?.title ?? `Competition ${i.competitionId}`;
  const named = (list: CartItem[]) =>
    list.map((i) => ({ id: i.id, competitionId: i.competitionId, title: titleOf(i) }));
  const expired = items.filter((i) => i.expiresAt <= now || (held.get(i.id)?.length ?? 0) !== i.quantity);
  if (expired.length) {
    throw conflict(
      `Your reservation has expired for ${titlesOf(named(expired))}. Please remove ${expired.length === 1 ? 'it' : 'them'} from your cart and choose your tickets again.`,
      { expired: named(expired) },
    );
  }
  const closed = items.filter((i) => {
    const c = competitions.get(i.competitionId);
    return c?.status !== 'active' || c.endDate <= now;
  });
  if (closed.length) {
    throw conflict(
      `${titlesOf(named(closed))} ${closed.length === 1 ? 'is' : 'are'} closed to new entries. Please remove ${closed.length === 1 ? 'it' : 'them'} from your cart.`,
      { closed: named(closed) },
    );
  }
  return items.map((i) => ({
    cartItemId: i.id,
    competitionId: i.competitionId,
    title: titleOf(i),
    ticketPricePence: competitions.get(i.competitionId)!.ticketPricePence,
    numbers: held.get(i.id)!,
    bundles: bundlesOf(competitions.get(i.competitionId)!),
  }));
}

/**
 * What the lines cost (each competition's tickets at the cheapest mix of its bundles and single
 * tickets, docs/product.md#multi-buy-pricing), what each ticket of each line cost, the credit
 * applied, who takes the rest, and the cart's fingerprint.
 */
export function priceOf(
  deps: CheckoutDeps,
  lines: Line[],
  creditPence: number,
  input: CreatePaymentIntentInput,
) {
  const priced = priceLines(
    lines.map((l) => ({
      competitionId: l.competitionId,
      count: l.numbers.length,
      unitPence: l.ticketPricePence,
      bundles: l.bundles,
    })),
  );
  const subtotal = priced.totalPence;
  const ticketCosts = priced.lineCosts;
  if (input.useCredit && subtotal < CREDIT_MINIMUM_SPEND_PENCE) throw badRequest(CREDIT_MINIMUM_MESSAGE);
  // The same rule the cart's summary shows (including the card's 30p minimum).
  const credit = creditToApply(subtotal, creditPence, input.useCredit);
  const total = subtotal - credit;
  // Stripe refuses a smaller charge with an error; the customer gets a message to act on instead.
  if (belowCardMinimum(total)) throw new HttpError(400, ERROR_CODES.cardMinimum, CARD_MINIMUM_MESSAGE);
  const provider: Order['paymentProvider'] = total === 0 ? 'credit' : deps.gateway.name;
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        lines: lines.map((l, i) => [l.competitionId, l.ticketPricePence, l.numbers, ticketCosts[i]]),
        credit,
        provider,
      }),
    )
    .digest('hex');
  return { subtotal, ticketCosts, credit, total, provider, fingerprint };
}
