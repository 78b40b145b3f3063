import { type FormEvent, type RefObject, useMemo, useState } from 'react';
import styled from 'styled-components';
import { toast } from '../../stores/toast';
import { type NumberGridHandle, toolButton } from '../competitions/VirtualNumberGrid';
import { rangePages } from './selection';

const Tools = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  margin: ${({ theme }) => `${theme.space.sm} 0`};
  form { display: flex; gap: 4px; }
  input, select {
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.xs};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    font: inherit;
  }
  input[type='number'], input[type='search'] { width: 130px; }
  button {
    ${toolButton}
    padding: 0 ${({ theme }) => theme.space.sm};
  }
`;

/**
 * The ways around a large grid: go to a number, jump to a range (the one in view is shown),
 * search the free numbers, and Lucky Dip the rest of the selection.
 */
export function SelectorTools({
  grid,
  total,
  firstVisible,
  search,
  onSearch,
  onLuckyDip,
}: {
  grid: RefObject<NumberGridHandle | null>;
  total: number;
  /**
   * The last number of the top row in view, for the range shown: a jump puts the range's first
   * number in the top row, which may begin in the range before.
   */
  firstVisible: number;
  search: string;
  onSearch: (search: string) => void;
  onLuckyDip: () => void;
}) {
  const [jumpTo, setJumpTo] = useState('');
  const pages = useMemo(() => rangePages(total), [total]);

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jumpTo);
    if (Number.isInteger(n) && n >= 1 && n <= total) grid.current?.scrollToNumber(n);
    else
      toast({
        title: 'Number out of range',
        description: `Choose a number from 1 to ${total.toLocaleString('en-GB')}.`,
      });
  };

  return (
    <Tools>
      <form onSubmit={jump}>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={total}
          aria-label="Go to number"
          placeholder={`1 - ${total}`}
          value={jumpTo}
          onChange={(e) => setJumpTo(e.target.value)}
        />
        <button type="submit">Go</button>
      </form>
      {pages.length > 0 && (
        <select
          aria-label="Jump to range"
          value={pages.find((p) => firstVisible >= p.start && firstVisible <= p.end)?.start ?? 1}
          onChange={(e) => grid.current?.scrollToNumber(Number(e.target.value), 'start')}
        >
          {pages.map((p) => (
            <option key={p.start} value={p.start}>
              {p.start.toLocaleString('en-GB')} - {p.end.toLocaleString('en-GB')}
            </option>
          ))}
        </select>
      )}
      <input
        type="search"
        aria-label="Search numbers"
        placeholder="Search e.g. 777"
        inputMode="numeric"
        value={search}
        onChange={(e) => onSearch(e.target.value)}
      />
      <button type="button" onClick={onLuckyDip}>
        Lucky Dip the rest
      </button>
    </Tools>
  );
}
