import { describe, expect, it } from 'vitest';
import { ADMIN_CATEGORIES } from '../../contract/admin';
import {
  CATEGORY_FILTERS,
  categoryLabel,
  deriveCategory,
  isCategoryFilter,
  PUBLIC_CATEGORIES,
} from '../../contract/categories';

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
    expect(deriveCategory(c('Electric car'))).toBe('automotive');
    expect(deriveCategory(c('Motorbike and helmet'))).toBe('automotive');
    expect(deriveCategory(c('Beach holiday for two'))).toBe('travel');
    // 'car' only as a word: a card or a cart is not a car.
    expect(deriveCategory(c('Shopping card'))).not.toBe('automotive');
    expect(deriveCategory(c('Golf cart'))).toBe('other');
  });

  it('is case-insensitive and returns other when nothing matches', () => {
    expect(deriveCategory(c('CASH BONANZA'))).toBe('cash');
    expect(deriveCategory(c('Hot air balloon ride'))).toBe('other');
  });

  it('accepts only known filters', () => {
    expect(isCategoryFilter('all')).toBe(true);
    expect(isCategoryFilter('vouchers')).toBe(true);
    expect(isCategoryFilter('travel')).toBe(true);
    expect(isCategoryFilter('automotive')).toBe(true);
    expect(isCategoryFilter('other')).toBe(false);
  });

  it('is the one list: the admin form offers exactly the public categories', () => {
    expect(ADMIN_CATEGORIES.map((a) => a.toLowerCase())).toEqual([...PUBLIC_CATEGORIES]);
    expect(CATEGORY_FILTERS.map(categoryLabel)).toContain('Automotive');
    expect(CATEGORY_FILTERS.map(categoryLabel)).toContain('Travel');
  });
});
