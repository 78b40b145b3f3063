import { describe, expect, it } from 'vitest';
import { savingLabel } from '../../contract/bundles';
import type { CartItemView } from '../../contract/cart';
import {
  fillRandomly,
  listNumbers,
  lostNumbers,
  pickNumber,
  rangePages,
  searchNumbers,
  toggleNumber,
} from '../../web/components/purchase/selection';
import { cartPricing, cartTicketCount, cartTotalPence, dedupeCart } from '../../web/stores/cart';

const freeExcept =
  (...taken: number[]) =>
  (n: number) =>
    !taken.includes(n);

describe('number selection rules', () => {
  it('selects up to the limit, refuses one more, and unselects on a second click', () => {
    let s = toggleNumber([], 7, 2).selection;
    s = toggleNumber(s, 9, 2).selection;
    expect(s).toEqual([7, 9]);
    expect(toggleNumber(s, 11, 2)).toEqual({ selection: [7, 9], limitReached: true });
    expect(toggleNumber(s, 7, 2)).toEqual({ selection: [9], limitReached: false });
  });

  it('names the selected numbers that are no longer free', () => {
    expect(lostNumbers([3, 5, 8], freeExcept(5, 8, 10))).toEqual([5, 8]);
  });

  it('searches free numbers by their digits, smallest first, capped', () => {
    expect(searchNumbers(1000, '77', freeExcept(177))).toEqual([
      77, 277, 377, 477, 577, 677, 770, 771, 772, 773, 774, 775, 776, 777, 778, 779, 877, 977,
    ]);
    expect(searchNumbers(100_000, '7', () => true, 5)).toEqual([7, 17, 27, 37, 47]);
    expect(searchNumbers(100, 'abc', () => true)).toEqual([]);
  });

  it('pages big grids by 1,000 and very big ones into at most 100 pages', () => {
    expect(rangePages(1000)).toEqual([]);
    expect(rangePages(2500)).toEqual([
      { start: 1, end: 1000 },
      { start: 1001, end: 2000 },
      { start: 2001, end: 2500 },
    ]);
    expect(rangePages(100_000)).toHaveLength(100);
    expect(rangePages(100_000).at(-1)).toEqual({ start: 99_001, end: 100_000 });
    expect(rangePages(250_000)).toHaveLength(84); // pages of 3,000
  });

  it('fills the rest with distinct free numbers, also when almost everything is taken', () => {
    const filled = fillRandomly([4], 5, 50, freeExcept(1, 2, 3));
    expect(filled).toHaveLength(5);
    expect(new Set(filled).size).toBe(5);
    expect(filled[0]).toBe(4);
    expect(filled.every((n) => n >= 4 && n <= 50)).toBe(true);
    // Only 6 and 9 free besides the one already chosen: those two, whatever the random source says.
    const dense = (n: number) => n === 6 || n === 9 || n === 2;
    expect(fillRandomly([2], 3, 10, dense, () => 0).sort()).toEqual([2, 6, 9]);
    expect(fillRandomly([2], 5, 10, dense)).toHaveLength(3); // fewer free than wanted
  });

  it('reads lists of numbers the British way', () => {
    expect(listNumbers([12])).toBe('12');
    expect(listNumbers([99_999, 3, 12])).toBe('3, 12 and 99,999');
  });
});

const item = (over: Partial<CartItemView>): CartItemView => ({
  id: 1,
  sessionId: 's',
  competitionId: 1,
  quantity: 1,
  selectedNumbers: [],
  heldNumbers: [1],
  reservedAt: '',
  expiresAt: '',
  kept: false,
  createdAt: '',
  competition: { id: 1, title: 'T', image: null, ticketPrice: 0.1, endDate: '' },
  ...over,
});

describe('cart helpers', () => {
  it('drops duplicates by id and by the same competition and number set', () => {
    const items = [
      item({ id: 1, selectedNumbers: [3, 1] }),
      item({ id: 1 }),
      item({ id: 2, selectedNumbers: [1, 3] }),
      item({ id: 3, competitionId: 2, selectedNumbers: [1, 3] }),
      item({ id: 4 }),
    ];
    expect(dedupeCart(items).map((i) => i.id)).toEqual([1, 3, 4]);
  });

  it('totals in whole pence (0.1 + 0.2 style drift cannot creep in)', () => {
    const items = [
      item({ id: 1, quantity: 3 }),
      item({
        id: 2,
        competitionId: 2,
        quantity: 2,
        competition: { id: 2, title: 'U', image: null, ticketPrice: 0.2, endDate: '' },
      }),
    ];
    expect(cartTotalPence(items)).toBe(70);
    expect(cartTicketCount(items)).toBe(5);
  });

  it("prices a competition's tickets together with its bundles, across its cart items", () => {
    const competition = {
      id: 1,
      title: 'T',
      image: null,
      ticketPrice: 1,
      endDate: '',
      bundles: [{ quantity: 5, price: 4 }],
    };
    const items = [
      item({ id: 7, quantity: 2, competition }),
      item({ id: 3, quantity: 4, competition }),
      item({ id: 9, competitionId: 2, quantity: 1 }),
    ];
    const priced = cartPricing(items);
    // Six £1 tickets: 5 for £4.00 and one single; the 10p ticket of the other competition apart.
    expect(priced.totalPence).toBe(510);
    expect(cartTotalPence(items)).toBe(510);
    expect(priced.byCompetition.get(1)!.uses.map(savingLabel)).toEqual(['5 for £4.00: you save £1.00']);
    // Lines in id order, as checkout takes them: item 3 has four of the bundle's tickets.
    expect(Object.fromEntries(priced.linePence)).toEqual({ 3: 320, 7: 180, 9: 10 });
  });
});

describe('pickNumber: the count follows the picks', () => {
  it('raises the count for a pick past it, keeps it on an unpick, and refuses past the maximum', () => {
    expect(pickNumber([4], 9, 1, 10)).toEqual({ selection: [4, 9], quantity: 2, limitReached: false });
    expect(pickNumber([4, 9], 9, 2, 10)).toEqual({ selection: [4], quantity: 2, limitReached: false });
    expect(pickNumber([4], 7, 3, 10)).toEqual({ selection: [4, 7], quantity: 3, limitReached: false });
    expect(pickNumber([1, 2], 3, 2, 2)).toEqual({ selection: [1, 2], quantity: 2, limitReached: true });
  });
});
