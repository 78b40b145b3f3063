import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type CategoryFilter, isCategoryFilter } from '../../../contract/categories';

/** The selected category lives in the URL (?category=cash) so footer links and back/forward work. */
export function useCategoryParam(): [CategoryFilter, (c: CategoryFilter) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const raw = (new URLSearchParams(search).get('category') ?? 'all').toLowerCase();
  const category: CategoryFilter = isCategoryFilter(raw) ? raw : 'all';
  const setCategory = useCallback(
    (c: CategoryFilter) => navigate(c === 'all' ? location : `${location}?category=${c}`, { replace: true }),
    [location, navigate],
  );
  return [category, setCategory];
}
