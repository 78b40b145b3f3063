import * as v from 'valibot';
import { formatPence, penceToPounds, poundsToPence } from './money';

// Multi-buy pricing (docs/product.md#multi-buy-pricing): a competition may offer up to four
// bundles, "5 for £4.00". The API speaks pounds, the server keeps pence. The cheapest mix of
// bundles and single tickets is one pure function, run by the cart on screen and by checkout.
// Bundles change only the price: one ticket is one entry, and the free postal route is unchanged.

export const MAX_BUNDLES = 4;
export const MAX_BUNDLE_QUANTITY = 10_000;

/** A bundle as the API sends and takes it: pounds. */
export interface BundleOffer {
  quantity: number;
  price: number;
}

/** A bundle as the server keeps it and the pricing works on it: integer pence. */
export interface Bundle {
  quantity: number;
  pricePence: number;
}

const wholePence = (p: number) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6;

/** One bundle's shape; how it compares with the ticket price and the other bundles is `bundleProblem`. */
export const BundleOfferSchema = v.object({
  quantity: v.pipe(
    v.number('Bundle quantity must be a whole number of at least 2'),
    v.integer('Bundle quantity must be a whole number of at least 2'),
    v.minValue(2, 'Bundle quantity must be a whole number of at least 2'),
    v.maxValue(MAX_BUNDLE_QUANTITY, 'Bundle quantity can be at most 10,000'),
  ),
  price: v.pipe(
    v.number('Bundle price must be a positive amount'),
    v.gtValue(0, 'Bundle price must be a positive amount'),
    v.check(wholePence, 'Bundle price must be in whole pence'),
  ),
});

/** `bundles` of the admin competition body: at most four, each quantity once. */
export const BundleOffersSchema = v.pipe(
  v.array(BundleOfferSchema, 'Bundles must be a list'),
  v.maxLength(MAX_BUNDLES, 'A competition can have at most 4 bundles'),
  v.check(
    (list) => new Set(list.map((b) => b.quantity)).size === list.length,
    'Each bundle must be for a different number of tickets',
  ),
);

/** Pounds to pence, smallest bundle first. */
export const bundlesToPence = (offers: readonly BundleOffer[]): Bundle[] =>
  offers
    .map((b) => ({ quantity: b.quantity, pricePence: poundsToPence(b.price) }))
    .sort((a, b) => a.quantity - b.quantity);

/** Pence to pounds, smallest bundle first. */
export const bundlesToOffers = (bundles: readonly Bundle[] | null | undefined): BundleOffer[] =>
  [...(bundles ?? [])]
    .sort((a, b) => a.quantity - b.quantity)
    .map((b) => ({ quantity: b.quantity, price: penceToPounds(b.pricePence) }));

/**
 * What is wrong with these bundles at this ticket price, or null: each must cost less than its
 * tickets bought singly, and a larger bundle must never cost more per ticket than a smaller one.
 */
export function bundleProblem(ticketPricePence: number, bundles: readonly Bundle[]): string | null {
  const sorted = [...bundles].sort((a, b) => a.quantity - b.quantity);
  for (const b of sorted) {
    const singly = b.quantity * ticketPricePence;
    if (b.pricePence >= singly)
      return `The ${b.quantity}-ticket bundle must cost less than ${b.quantity} single tickets (${formatPence(singly)})`;
  }
  for (let i = 1; i < sorted.length; i++) {
    const small = sorted[i - 1]!;
    const large = sorted[i]!;
    // large.price / large.quantity > small.price / small.quantity, in whole numbers.
    if (large.pricePence * small.quantity > small.pricePence * large.quantity)
      return `The ${large.quantity}-ticket bundle must not cost more per ticket than the ${small.quantity}-ticket bundle`;
  }
  return null;
}

/** One bundle as used in a price: how many times, and what it saves against single tickets. */
export interface BundleUse extends Bundle {
  times: number;
  savedPence: number;
}

export interface TicketPrice {
  totalPence: number;
  /** Tickets bought at the single price. */
  singles: number;
  /** Bundles used, largest first. */
  uses: BundleUse[];
  savedPence: number;
  /** What each ticket cost, bundles first (largest first) then singles; sums to `totalPence`. */
  ticketCostsPence: number[];
}

/**
 * The cheapest way to buy `count` tickets at `unitPence` each with these bundles (a small dynamic
 * programme over the count; ties go to a bundle). A bundle's price is shared among its tickets
 * to the penny, the first tickets taking the odd pence.
 */
export function priceTickets(
  count: number,
  unitPence: number,
  bundles: readonly Bundle[] | null | undefined,
): TicketPrice {
  const offers = [...(bundles ?? [])].sort((a, b) => b.quantity - a.quantity);
  const cost = new Array<number>(count + 1).fill(0);
  const pick = new Array<number>(count + 1).fill(-1); // -1: a single ticket
  for (let k = 1; k <= count; k++) {
    cost[k] = cost[k - 1]! + unitPence;
    offers.forEach((b, i) => {
      if (b.quantity <= k && cost[k - b.quantity]! + b.pricePence <= cost[k]!) {
        if (cost[k - b.quantity]! + b.pricePence < cost[k]! || pick[k] === -1) {
          cost[k] = cost[k - b.quantity]! + b.pricePence;
          pick[k] = i;
        }
      }
    });
  }
  const times = offers.map(() => 0);
  let singles = 0;
  for (let k = count; k > 0; ) {
    const i = pick[k]!;
    if (i === -1) {
      singles++;
      k--;
    } else {
      times[i]!++;
      k -= offers[i]!.quantity;
    }
  }
  const uses = offers
    .map((b, i) => ({
      ...b,
      times: times[i]!,
      savedPence: times[i]! * (b.quantity * unitPence - b.pricePence),
    }))
    .filter((u) => u.times > 0);
  const ticketCostsPence: number[] = [];
  for (const u of uses) {
    for (let t = 0; t < u.times; t++) {
      const base = Math.floor(u.pricePence / u.quantity);
      const odd = u.pricePence - base * u.quantity;
      for (let j = 0; j < u.quantity; j++) ticketCostsPence.push(base + (j < odd ? 1 : 0));
    }
  }
  for (let s = 0; s < singles; s++) ticketCostsPence.push(unitPence);
  return {
    totalPence: cost[count]!,
    singles,
    uses,
    savedPence: uses.reduce((sum, u) => sum + u.savedPence, 0),
    ticketCostsPence,
  };
}

/** "Buy 5 for £4.00" */
export const offerLabel = (b: Bundle): string => `Buy ${b.quantity} for ${formatPence(b.pricePence)}`;

/** "5 for £4.00: you save £1.00" ("2 × 5 for £4.00: you save £2.00" when used twice). */
export const savingLabel = (u: BundleUse): string =>
  `${u.times > 1 ? `${u.times} × ` : ''}${u.quantity} for ${formatPence(u.pricePence)}: you save ${formatPence(u.savedPence)}`;

/**
 * When one more ticket would complete a bundle (it costs less than a single ticket), what the
 * selector says: "Add 1 more ticket to get 5 for £4.00"; otherwise null.
 */
export function oneMoreHint(
  count: number,
  unitPence: number,
  bundles: readonly Bundle[] | null | undefined,
): string | null {
  if (!bundles?.length || count < 1) return null;
  const now = priceTickets(count, unitPence, bundles);
  const next = priceTickets(count + 1, unitPence, bundles);
  if (next.totalPence - now.totalPence >= unitPence) return null;
  const gained = next.uses.find(
    (u) => u.times > (now.uses.find((n) => n.quantity === u.quantity)?.times ?? 0),
  );
  if (!gained) return null;
  return `Add 1 more ticket to get ${gained.quantity} for ${formatPence(gained.pricePence)}`;
}

/** One competition's tickets in a cart or an order: how many, the single price, its bundles. */
export interface TicketGroupInput {
  competitionId: number;
  count: number;
  unitPence: number;
  bundles?: readonly Bundle[] | null;
}

export interface PricedCart {
  totalPence: number;
  savedPence: number;
  /** Per competition, the price of all its tickets in the cart together. */
  byCompetition: Map<number, TicketPrice>;
  /** Per line (in the order given), what each of its tickets costs: the competition's costs in turn. */
  lineCosts: number[][];
}

/**
 * Prices lines (cart items or order lines) the one way checkout and the cart both do: each
 * competition's tickets together, at the cheapest mix (a bundle may span two cart items).
 */
export function priceLines(lines: readonly TicketGroupInput[]): PricedCart {
  const groups = new Map<number, TicketGroupInput>();
  for (const l of lines) {
    const g = groups.get(l.competitionId);
    groups.set(l.competitionId, g ? { ...g, count: g.count + l.count } : { ...l });
  }
  const byCompetition = new Map<number, TicketPrice>();
  for (const [id, g] of groups) byCompetition.set(id, priceTickets(g.count, g.unitPence, g.bundles));
  const taken = new Map<number, number>();
  const lineCosts = lines.map((l) => {
    const from = taken.get(l.competitionId) ?? 0;
    taken.set(l.competitionId, from + l.count);
    return byCompetition.get(l.competitionId)!.ticketCostsPence.slice(from, from + l.count);
  });
  let totalPence = 0;
  let savedPence = 0;
  for (const p of byCompetition.values()) {
    totalPence += p.totalPence;
    savedPence += p.savedPence;
  }
  return { totalPence, savedPence, byCompetition, lineCosts };
}

/** An order line as stored: the single price, how many, and (since bundles) each ticket's cost. */
export interface PaidLine {
  ticketPricePence: number;
  quantity: number;
  ticketCosts?: readonly number[] | null;
}

/**
 * What each ticket of an order line cost (pence), in the order of its numbers: as stored, or each
 * at the single price for a line stored before bundles. Receipts, refunds and totals read this.
 */
export const ticketCostsOf = (line: PaidLine): number[] =>
  line.ticketCosts && line.ticketCosts.length === Number(line.quantity)
    ? line.ticketCosts.map(Number)
    : new Array<number>(Number(line.quantity)).fill(Number(line.ticketPricePence));

/** Each ticket number's cost on these order lines of one competition (pence). */
export function costByNumber(
  lines: ReadonlyArray<PaidLine & { selectedNumbers: readonly number[] }>,
): Map<number, number> {
  const costs = new Map<number, number>();
  for (const line of lines) {
    const each = ticketCostsOf(line);
    for (const [i, n] of line.selectedNumbers.entries()) costs.set(Number(n), each[i]!);
  }
  return costs;
}

/** What an order line cost altogether (pence). */
export const paidPenceOf = (line: PaidLine): number => ticketCostsOf(line).reduce((s, c) => s + c, 0);
