import * as v from 'valibot';

// Page and page size for the admin's long lists (orders, complaints): query strings, so numbers
// arrive as text.

const wholeNumberText = (message: string) =>
  v.pipe(
    v.union([v.number(message), v.pipe(v.string(message), v.trim(), v.regex(/^\d+$/, message))], message),
    v.transform(Number),
    v.integer(message),
  );

/** `page` (from 1) and `pageSize` (1 to 100, `defaultSize` when absent) of a list query. */
export const pagingFields = (defaultSize: number) => ({
  page: v.optional(
    v.pipe(
      wholeNumberText('page must be a whole number of at least 1'),
      v.minValue(1, 'page must be a whole number of at least 1'),
    ),
    1,
  ),
  pageSize: v.optional(
    v.pipe(
      wholeNumberText('pageSize must be between 1 and 100'),
      v.minValue(1, 'pageSize must be between 1 and 100'),
      v.maxValue(100, 'pageSize must be between 1 and 100'),
    ),
    defaultSize,
  ),
});

/** Where a page sits in the whole list. */
export interface PageInfo {
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

export const pageInfo = (total: number, page: number, pageSize: number): PageInfo => ({
  total,
  page,
  pageSize,
  totalPages: Math.max(1, Math.ceil(total / pageSize)),
});

/** A search box's text: trimmed, at most 254 characters. */
export const searchText = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(254, 'Search is too long')));
