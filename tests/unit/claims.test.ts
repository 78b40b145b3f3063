import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { DeliveryAddressSchema, formatPostcode, UK_POSTCODE } from '../../contract/claims';

// The delivery address's UK postcode check (docs/draws.md#7-claiming-a-prize).

describe('UK postcodes', () => {
  it('accepts every shape, in any case, with or without the space', () => {
    for (const p of [
      'SW1A 1AA',
      'sw1a1aa',
      'M1 1AE',
      'B33 8TH',
      'CR2 6XH',
      'DN55 1PT',
      'W1A 0AX',
      'EC1A 1BB',
      'TR11 3HH',
      'GIR 0AA',
    ])
      expect(UK_POSTCODE.test(p), p).toBe(true);
  });

  it('refuses what is not a postcode', () => {
    for (const p of ['12345', 'SW1A 1AAA', 'Q1 1AA', 'SW1A', '1AA SW1A', 'BS1 4CI', ''])
      expect(UK_POSTCODE.test(p), p).toBe(false);
  });

  it('stores it upper case with one space before the inward code', () => {
    expect(formatPostcode('sw1a1aa')).toBe('SW1A 1AA');
    expect(formatPostcode(' bs1   4dj ')).toBe('BS1 4DJ');
    const parsed = v.parse(DeliveryAddressSchema, {
      line1: ' 1 High St ',
      town: 'Bristol',
      postcode: 'bs14dj',
    });
    expect(parsed).toEqual({ line1: '1 High St', line2: '', town: 'Bristol', postcode: 'BS1 4DJ' });
  });
});
