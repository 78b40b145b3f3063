import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type Bundle,
  BundleOffersSchema,
  bundleProblem,
  offerLabel,
  oneMoreHint,
  priceTickets,
  savingLabel,
} from '../../contract/bundles';

/** Every way to make `count` from the bundles and singles, tried one by one. */
function bruteForce(count: number, unit: number, bundles: Bundle[]): number {
  if (count === 0) return 0;
  let best = count * unit;
  const walk = (i: number, left: number, spent: number) => {
    if (i === bundles.length) {
      best = Math.min(best, spent + left * unit);
      return;
    }
    const b = bundles[i]!;
    for (let n = 0; n * b.quantity <= left; n++) walk(i + 1, left - n * b.quantity, spent + n * b.pricePence);
  };
  walk(0, count, 0);
  return best;
}

const bundleArb = fc.record({
  quantity: fc.integer({ min: 2, max: 12 }),
  pricePence: fc.integer({ min: 1, max: 3000 }),
});

describe('multi-buy pricing', () => {
  it('prices a £1 competition with 5 for £4.00', () => {
    const five = [{ quantity: 5, pricePence: 400 }];
    expect(priceTickets(5, 100, five).totalPence).toBe(400);
    expect(priceTickets(4, 100, five).totalPence).toBe(400);
    expect(priceTickets(6, 100, five)).toMatchObject({ totalPence: 500, singles: 1, savedPence: 100 });
    expect(priceTickets(6, 100, five).ticketCostsPence).toEqual([80, 80, 80, 80, 80, 100]);
    expect(savingLabel(priceTickets(5, 100, five).uses[0]!)).toBe('5 for £4.00: you save £1.00');
    expect(savingLabel(priceTickets(10, 100, five).uses[0]!)).toBe('2 × 5 for £4.00: you save £2.00');
    expect(offerLabel(five[0]!)).toBe('Buy 5 for £4.00');
  });

  it('mixes bundles: 15 tickets with 5 for £4.00 and 10 for £7.50', () => {
    const offers = [
      { quantity: 5, pricePence: 400 },
      { quantity: 10, pricePence: 750 },
    ];
    const p = priceTickets(15, 100, offers);
    expect(p.totalPence).toBe(1150);
    expect(p.uses.map((u) => [u.quantity, u.times])).toEqual([
      [10, 1],
      [5, 1],
    ]);
    expect(p.savedPence).toBe(350);
  });

  it('shares a bundle price to the penny', () => {
    expect(priceTickets(3, 150, [{ quantity: 3, pricePence: 400 }]).ticketCostsPence).toEqual([
      134, 133, 133,
    ]);
  });

  it('finds the cheapest mix, like trying every mix (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 500 }),
        fc.uniqueArray(bundleArb, { maxLength: 4, selector: (b) => b.quantity }),
        (count, unit, bundles) => {
          const p = priceTickets(count, unit, bundles);
          expect(p.totalPence).toBe(bruteForce(count, unit, bundles));
          expect(p.ticketCostsPence).toHaveLength(count);
          expect(p.ticketCostsPence.reduce((a, b) => a + b, 0)).toBe(p.totalPence);
          const used = p.uses.reduce((n, u) => n + u.quantity * u.times, 0) + p.singles;
          expect(used).toBe(count);
          expect(p.totalPence + p.savedPence).toBe(count * unit);
        },
      ),
    );
  });

  it('tells when one more ticket completes a bundle', () => {
    const five = [{ quantity: 5, pricePence: 400 }];
    expect(oneMoreHint(4, 100, five)).toBe('Add 1 more ticket to get 5 for £4.00');
    expect(oneMoreHint(3, 100, five)).toBeNull();
    expect(oneMoreHint(5, 100, five)).toBeNull();
    expect(oneMoreHint(9, 100, five)).toBe('Add 1 more ticket to get 5 for £4.00');
    expect(oneMoreHint(4, 100, [])).toBeNull();
  });

  it('validates bundles with clear messages', () => {
    const parse = (x: unknown) => v.safeParse(BundleOffersSchema, x);
    const msg = (x: unknown) => parse(x).issues?.[0]?.message;
    expect(parse([{ quantity: 5, price: 4 }]).success).toBe(true);
    expect(msg([{ quantity: 1, price: 0.5 }])).toBe('Bundle quantity must be a whole number of at least 2');
    expect(msg([{ quantity: 5, price: 4.001 }])).toBe('Bundle price must be in whole pence');
    expect(msg([2, 3, 4, 5, 6].map((q) => ({ quantity: q, price: 1 })))).toBe(
      'A competition can have at most 4 bundles',
    );
    expect(
      msg([
        { quantity: 5, price: 4 },
        { quantity: 5, price: 3 },
      ]),
    ).toBe('Each bundle must be for a different number of tickets');
    expect(bundleProblem(100, [{ quantity: 5, pricePence: 500 }])).toBe(
      'The 5-ticket bundle must cost less than 5 single tickets (£5.00)',
    );
    expect(
      bundleProblem(100, [
        { quantity: 5, pricePence: 400 },
        { quantity: 10, pricePence: 850 },
      ]),
    ).toBe('The 10-ticket bundle must not cost more per ticket than the 5-ticket bundle');
    expect(
      bundleProblem(100, [
        { quantity: 5, pricePence: 400 },
        { quantity: 10, pricePence: 750 },
      ]),
    ).toBeNull();
  });
});
