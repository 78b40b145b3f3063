// Category list and derivation (docs/product.md#categories). The one list of categories: the
// public category bar, the footer's Categories column, the keyword derivation and the admin form's
// options (ADMIN_CATEGORIES, capitalised) all come from it, so a category an admin can pick is
// always one a customer can filter by.

export const PUBLIC_CATEGORIES = [
  'cash',
  'automotive',
  'electronics',
  'travel',
  'home',
  'toys',
  'family',
  'fashion',
  'sports',
  'luxury',
  'vouchers',
] as const;

export type PublicCategory = (typeof PUBLIC_CATEGORIES)[number];
export type CategoryFilter = 'all' | PublicCategory;
/** A derived category: a public one, 'other', or any admin category such as 'travel'. */
export type DerivedCategory = string;

export const CATEGORY_FILTERS: readonly CategoryFilter[] = ['all', ...PUBLIC_CATEGORIES];

/** 'cash' -> 'Cash' (the ?category= query form and the label). */
export const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

export const categoryLabel = (c: CategoryFilter): string => (c === 'all' ? 'All Prizes' : capitalise(c));

// Order matters: the first category whose keyword appears wins. A keyword is a substring, or a
// pattern where a substring would catch other words ('car' in 'card' or 'cart').
const KEYWORDS: ReadonlyArray<readonly [PublicCategory, ReadonlyArray<string | RegExp>]> = [
  ['cash', ['cash', 'money', 'prize']],
  ['automotive', ['automotive', 'motorbike', 'motorcycle', 'vehicle', 'supercar', /\bcars?\b/]],
  ['electronics', ['tech', 'electronic', 'gadget', 'phone', 'laptop', 'computer', 'watch']],
  ['travel', ['travel', 'holiday', 'flight', 'cruise', 'getaway', 'city break']],
  ['home', ['home', 'house', 'kitchen', 'appliance', 'furniture']],
  ['toys', ['toy', 'game', 'play', 'kids']],
  ['family', ['family', 'kids', 'children', 'baby']],
  ['fashion', ['fashion', 'clothing', 'clothes', 'style', 'beauty', 'cosmetic', 'makeup']],
  ['sports', ['sport', 'fitness', 'gym', 'exercise']],
  ['luxury', ['luxury', 'premium', 'high-end', 'designer']],
  ['vouchers', ['voucher', 'gift card', 'shopping voucher', 'store credit']],
];

export interface Categorisable {
  title: string;
  description: string;
  details?: { category?: string | null } | null;
}

/** details.category lowercased when present, else the first keyword match in title + description, else 'other'. */
export function deriveCategory(c: Categorisable): DerivedCategory {
  const explicit = c.details?.category?.trim();
  if (explicit) return explicit.toLowerCase();
  const text = `${c.title} ${c.description}`.toLowerCase();
  for (const [category, words] of KEYWORDS) {
    if (words.some((w) => (typeof w === 'string' ? text.includes(w) : w.test(text)))) return category;
  }
  return 'other';
}

export const isCategoryFilter = (value: string): value is CategoryFilter =>
  (CATEGORY_FILTERS as readonly string[]).includes(value);
