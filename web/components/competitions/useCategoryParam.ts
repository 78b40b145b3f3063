import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type CategoryFilter, isCategoryFilter } from '../../../contract/categories';
import { type DrawTypeFilter, isDrawType, isListSort, type ListSort } from './listOptions';

/**
 * One query parameter of the page's URL, so a filtered or sorted list can be shared, bookmarked
 * and reached with back/forward. The default value is left out of the URL; other parameters stay.
 */
function useSearchParam<T extends string>(
  name: string,
  fallback: T,
  valid: (value: string) => value is T,
): [T, (value: T) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const raw = (new URLSearchParams(search).get(name) ?? fallback).toLowerCase();
  const value = valid(raw) ? raw : fallback;
  const set = useCallback(
    (next: T) => {
      const params = new URLSearchParams(search);
      if (next === fallback) params.delete(name);
      else params.set(name, next);
      const query = params.toString();
      navigate(query ? `${location}?${query}` : location, { replace: true });
    },
    [search, location, navigate, name, fallback],
  );
  return [value, set];
}

/** The selected category lives in the URL (?category=cash) so footer links and back/forward work. */
export const useCategoryParam = () => useSearchParam<CategoryFilter>('category', 'all', isCategoryFilter);

/** ?sort=ending-soon and ?draw=auto-win, next to the category. */
export const useSortParam = () => useSearchParam<ListSort>('sort', 'newest', isListSort);
export const useDrawTypeParam = () => useSearchParam<DrawTypeFilter>('draw', 'all', isDrawType);
