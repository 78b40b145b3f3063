import { describe, expect, it } from 'vitest';
import { creditToApply } from '../../contract/checkout';

describe('creditToApply (the cart summary and the server use the same rule)', () => {
  it('uses none when not wanted or below a £5.00 cart', () => {
    expect(creditToApply(1000, 500, false)).toBe(0);
    expect(creditToApply(499, 500, true)).toBe(0);
  });
  it('uses the smaller of credit and total from £5.00', () => {
    expect(creditToApply(500, 200, true)).toBe(200);
    expect(creditToApply(500, 900, true)).toBe(500); // credit-only order: nothing on the card
    expect(creditToApply(2000, 500, true)).toBe(500);
  });
  it('never leaves the card under its 30p minimum: the credit is trimmed instead', () => {
    expect(creditToApply(524, 500, true)).toBe(494); // 24p would be left: the card pays 30p
    expect(creditToApply(530, 500, true)).toBe(500); // exactly 30p is fine
    expect(creditToApply(501, 500, true)).toBe(471);
  });
});
