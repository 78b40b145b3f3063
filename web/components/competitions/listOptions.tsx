import styled from 'styled-components';
import type { PublicCompetition } from '../../../contract/competitions';
import { media } from '../../theme/theme';

// Sorting and filtering the competition lists (docs/product.md#catalogue). The server's order
// (live draws first, newest first) is 'newest'; the others reorder it in the browser.

export const LIST_SORTS = {
  newest: 'Newest',
  'ending-soon': 'Ending soon',
  'lowest-price': 'Lowest price',
} as const;
export type ListSort = keyof typeof LIST_SORTS;
export const isListSort = (v: string): v is ListSort => Object.hasOwn(LIST_SORTS, v);

export const DRAW_TYPES = { all: 'All draws', 'live-draw': 'Live draws', 'auto-win': 'Auto wins' } as const;
export type DrawTypeFilter = keyof typeof DRAW_TYPES;
export const isDrawType = (v: string): v is DrawTypeFilter => Object.hasOwn(DRAW_TYPES, v);

/** The list as asked for: filtered by draw type, then sorted (stable, so ties keep the server's order). */
export function arrangeCompetitions(
  list: readonly PublicCompetition[],
  sort: ListSort,
  draw: DrawTypeFilter,
): PublicCompetition[] {
  const kept = list.filter((c) => draw === 'all' || c.autoWin === (draw === 'auto-win'));
  if (sort === 'ending-soon') return kept.sort((a, b) => Date.parse(a.endDate) - Date.parse(b.endDate));
  if (sort === 'lowest-price') return kept.sort((a, b) => a.ticketPrice - b.ticketPrice);
  return kept;
}

// On a phone each control takes half the row, its label above it: the same height whatever the
// text measures. Side by side and wrapping, the row count changed when the web font replaced the
// fallback and moved the competitions below (Lighthouse: CLS 0.08 on the home page).
const Bar = styled.div`
  display: grid;
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => `${theme.space.xs} 0 ${theme.space.md}`};
  label { display: grid; gap: 4px; font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  select {
    width: 100%;
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.xs};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
  }
  ${media.sm} {
    display: flex;
    flex-wrap: wrap;
    label { display: inline-flex; align-items: center; gap: 6px; }
    select { width: auto; }
  }
`;

function Choice<T extends string>({
  label,
  options,
  value,
  valid,
  onChange,
}: {
  label: string;
  options: Record<T, string>;
  value: T;
  valid: (v: string) => v is T;
  onChange: (v: T) => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => valid(e.target.value) && onChange(e.target.value)}>
        {Object.entries<string>(options).map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** 'Sort by' and 'Show' next to the category bar; both are kept in the URL by the page. */
export function ListControls({
  sort,
  onSort,
  draw,
  onDraw,
}: {
  sort: ListSort;
  onSort: (s: ListSort) => void;
  draw: DrawTypeFilter;
  onDraw: (d: DrawTypeFilter) => void;
}) {
  return (
    <Bar>
      <Choice label="Sort by" options={LIST_SORTS} value={sort} valid={isListSort} onChange={onSort} />
      <Choice label="Show" options={DRAW_TYPES} value={draw} valid={isDrawType} onChange={onDraw} />
    </Bar>
  );
}
