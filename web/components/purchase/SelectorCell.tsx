import { memo } from 'react';
import styled from 'styled-components';
import type { LiveCompetition, NumberState } from '../../live/competitionStore';
import { useNumberState } from '../../live/liveNumbers';
import {
  CellContent,
  type CellLook,
  cellLookCss,
  dataState,
  STATE_LABEL,
} from '../competitions/numberStates';
import { cellBox, type GridCellProps } from '../competitions/VirtualNumberGrid';

const NumberButton = styled.button<{ $look: CellLook }>`
  ${cellBox}
  ${cellLookCss}
  cursor: pointer;
  &:disabled { cursor: not-allowed; opacity: 0.75; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.info}; outline-offset: 1px; }
`;

/** The looks the selector's key explains. */
export const SELECTOR_LOOKS: CellLook[] = ['available', 'selected', 'mine', 'reserved', 'sold', 'owned'];

/** A picked number can always be unpicked; others only while free and under the cap. */
export const pickable = (selected: boolean, state: NumberState, atCap: boolean) =>
  selected || (state === 'available' && !atCap);

/**
 * One number; memoised on primitives, the live state and a stable `onPick`. It reads its own state
 * from `live` and re-renders when that number changes, so a ticket event re-renders only the cells
 * it changes, not the grid or the hundreds in view.
 */
export const SelectorCell = memo(function SelectorCell({
  n,
  live,
  selected,
  atCap,
  perPersonCap,
  onPick,
  ...cell
}: GridCellProps & {
  n: number;
  live: LiveCompetition;
  selected: boolean;
  /** The selection has reached the per-person cap: free numbers cannot be added. */
  atCap: boolean;
  perPersonCap: number;
  onPick: (n: number) => void;
}) {
  const state = useNumberState(live, n) ?? 'available';
  const look: CellLook = selected ? 'selected' : state;
  return (
    <NumberButton
      {...cell}
      type="button"
      $look={look}
      data-number={n}
      data-state={dataState(look)}
      aria-pressed={selected}
      disabled={!pickable(selected, state, atCap)}
      title={
        selected
          ? `Ticket #${n}: selected`
          : state === 'available' && atCap
            ? `Ticket #${n}: over the limit of ${perPersonCap} per person`
            : `Ticket #${n}: ${STATE_LABEL[state]}`
      }
      onClick={() => onPick(n)}
    >
      <CellContent n={n} look={look} />
    </NumberButton>
  );
});
