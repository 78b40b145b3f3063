import { useMemo } from 'react';
import styled from 'styled-components';
import { isFree, type LiveCompetition } from '../../live/competitionStore';
import { useLiveRev } from '../../live/liveNumbers';
import { searchNumbers } from './selection';

const Chips = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  align-items: center;
  min-height: 36px;
  margin: ${({ theme }) => `${theme.space.xs} 0`};
  button {
    border: 1px solid ${({ theme }) => theme.colors.brand};
    background: ${({ theme }) => theme.colors.infoBg};
    color: ${({ theme }) => theme.colors.brand};
    border-radius: ${({ theme }) => theme.radii.pill};
    padding: 2px 10px;
    font-weight: 600;
    cursor: pointer;
  }
`;

/** A small muted line of the selector. */
export const Note = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/**
 * The free numbers containing what was typed, kept live: only this re-renders at every change to
 * the numbers, and only while there is a search.
 */
export function SearchResults({
  live,
  search,
  selection,
  onPick,
}: {
  live: LiveCompetition;
  search: string;
  selection: number[];
  onPick: (n: number) => void;
}) {
  const rev = useLiveRev(live, search !== '');
  // biome-ignore lint/correctness/useExhaustiveDependencies: searched again at every live change (rev)
  const matches = useMemo(
    () => searchNumbers(live.totalTickets, search, (n) => isFree(live, n)),
    [live, search, rev],
  );
  if (!search) return null;
  return (
    <Chips role="group" aria-label="Search results">
      {matches.length === 0 ? (
        <Note>No available numbers contain {search}.</Note>
      ) : (
        matches.map((n) => (
          <button key={n} type="button" aria-pressed={selection.includes(n)} onClick={() => onPick(n)}>
            {n}
          </button>
        ))
      )}
    </Chips>
  );
}

/** 'Selected 2 of 3' and a chip per picked number, in order, that removes it. */
export function SelectionChips({
  selection,
  quantity,
  onPick,
}: {
  selection: number[];
  quantity: number;
  onPick: (n: number) => void;
}) {
  return (
    <Chips role="group" aria-label="Your selection">
      <strong>
        Selected {selection.length} of {quantity}
      </strong>
      {[...selection]
        .sort((a, b) => a - b)
        .map((n) => (
          <button key={n} type="button" aria-label={`Remove number ${n}`} onClick={() => onPick(n)}>
            {n} ×
          </button>
        ))}
    </Chips>
  );
}
