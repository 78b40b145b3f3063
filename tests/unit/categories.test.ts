import { describe, expect, it } from 'vitest';
import { deriveCategory, isCategoryFilter } from '../../contract/categories';

const c = (title: string, description = '', category?: string) => ({
  title,
  description,
  details: category === undefined ? {} : { category },
});

describe('deriveCategory (docs/product.md#categories)', () => {
  it('uses details.category lowercased when present', () => {
    expect(deriveCategory(c('Win a phone', '', 'Luxury'))).toBe('luxury');
    expect(deriveCategory(c('Anything', '', 'Travel'))).toBe('travel');
  });

  it('ignores an empty details.category and falls back to keywords', () => {
    expect(deriveCategory(c('New laptop', '', '  '))).toBe('electronics');
  });

  it('matches keywords in title and description in the spec order (first match wins)', () => {
    expect(deriveCategory(c('Smart watch', 'A prize for you'))).toBe('cash'); // 'prize' is a cash keyword
    expect(deriveCategory(c('Smart watch'))).toBe('electronics');
    expect(deriveCategory(c('Kitchen mixer'))).toBe('home');
    expect(deriveCategory(c('Board game night'))).toBe('toys');
    expect(deriveCategory(c('Baby stroller'))).toBe('family');
    expect(deriveCategory(c('Makeup hamper'))).toBe('fashion');
    expect(deriveCategory(c('Home gym', ''))).toBe('home');
    expect(deriveCategory(c('Gym membership'))).toBe('sports');
    expect(deriveCategory(c('Designer sunglasses'))).toBe('luxury');
    expect(deriveCategory(c('Shopping gift card'))).toBe('vouchers');
  });

  it('is case-insensitive and returns other when nothing matches', () => {
    expect(deriveCategory(c('CASH BONANZA'))).toBe('cash');
    expect(deriveCategory(c('Hot air balloon ride'))).toBe('other');
  });

  it('accepts only known filters', () => {
    expect(isCategoryFilter('all')).toBe(true);
    expect(isCategoryFilter('vouchers')).toBe(true);
    expect(isCategoryFilter('travel')).toBe(false);
  });
});
