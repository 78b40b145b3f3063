import { type FormEvent, type KeyboardEvent, type MouseEvent, memo, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import type { CompetitionEntry } from '../../../contract/competitions';
import type { LiveCompetition } from '../../live/competitionStore';
import { useNumberState } from '../../live/liveNumbers';
import { CellContent, type CellLook, cellLookCss, dataState, NumberKey, STATE_LABEL } from './numberStates';
import { StaleNumbers } from './StaleNumbers';
import {
  cellBox,
  type GridCellProps,
  type NumberGridHandle,
  toolButton,
  VirtualNumberGrid,
} from './VirtualNumberGrid';

const Cell = styled.span<{ $look: CellLook }>`
  ${cellBox}
  ${cellLookCss}
`;

/**
 * One number; memoised on primitives and the live state. It reads its own state from `live` and
 * re-renders when that number changes, so a ticket event re-renders only the cells it changes.
 * Until the live state arrives, the entries list decides: `ownerName` is set for a number sold.
 */
const EntryCell = memo(function EntryCell({
  n,
  live,
  ownerName,
  ...cell
}: GridCellProps & { n: number; live: LiveCompetition | undefined; ownerName: string | undefined }) {
  const look = useNumberState(live, n) ?? (ownerName === undefined ? 'available' : 'sold');
  const stale = live?.stale ? ' (may be out of date)' : '';
  const title = `Ticket #${n}: ${STATE_LABEL[look]}${look === 'sold' && ownerName ? ` by ${ownerName}` : ''}${stale}`;
  return (
    <Cell {...cell} $look={look} data-number={n} data-state={dataState(look)} title={title}>
      <CellContent n={n} look={look} />
    </Cell>
  );
});

const Toolbar = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: center;
  margin-bottom: ${({ theme }) => theme.space.sm};
  input {
    width: 140px;
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
  }
  button {
    ${toolButton}
    padding: 0 ${({ theme }) => theme.space.md};
  }
`;

// An available number can be clicked to pick it (the selector opens with it).
const Pickable = styled.div`
  [data-state='available'] { cursor: pointer; }
  [data-state='available']:hover { outline: 2px solid ${({ theme }) => theme.colors.brand}; }
`;

/** The available number an event on the grid is about, if any. */
const availableAt = (target: EventTarget) => {
  const cell = (target as HTMLElement).closest?.<HTMLElement>('[data-number]');
  return cell?.dataset.state === 'available' ? Number(cell.dataset.number) : undefined;
};

const Legend = styled(NumberKey)`
  margin-left: auto;
`;

/** Maps each number to the index of its owner in `entries` (-1 = not sold). */
function ownerIndex(totalTickets: number, entries: CompetitionEntry[]): Int32Array {
  const owners = new Int32Array(totalTickets + 1).fill(-1);
  entries.forEach((entry, i) => {
    for (const n of entry.ticketNumbers) if (n >= 1 && n <= totalTickets) owners[n] = i;
  });
  return owners;
}

const GRID_LOOKS: CellLook[] = ['available', 'reserved', 'mine', 'sold', 'owned'];

/**
 * Every ticket number from 1 to totalTickets with its live state (available, reserved, in your
 * cart, purchased) and the owner on hover. Only the rows in view are in the DOM, so 100,000
 * numbers cost the same as 100.
 */
export function EntriesGrid({
  totalTickets,
  entries,
  live,
  onPick,
}: {
  totalTickets: number;
  entries: CompetitionEntry[];
  /** Live state from the socket; until it arrives, the entries list decides. */
  live?: LiveCompetition | undefined;
  /** While tickets are on sale: an available number was clicked (or Enter/Space on it). */
  onPick?: (n: number) => void;
}) {
  const gridRef = useRef<NumberGridHandle>(null);
  const [jumpTo, setJumpTo] = useState('');
  const owners = useMemo(() => ownerIndex(totalTickets, entries), [totalTickets, entries]);

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jumpTo);
    if (Number.isInteger(n) && n >= 1 && n <= totalTickets) gridRef.current?.scrollToNumber(n);
  };

  // One handler for the whole grid: the memoised cells stay as they are.
  const click = (e: MouseEvent) => {
    const n = availableAt(e.target);
    if (onPick && n !== undefined) onPick(n);
  };
  const key = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const n = availableAt(e.target);
    if (!onPick || n === undefined) return;
    e.preventDefault();
    onPick(n);
  };

  const renderCell = (n: number, cell: GridCellProps) => {
    const owner = owners[n] ?? -1;
    // '' for a number sold to an entry without a name: sold all the same.
    const ownerName = owner >= 0 ? (entries[owner]?.ownerName ?? '') : undefined;
    return <EntryCell key={n} {...cell} n={n} live={live} ownerName={ownerName} />;
  };

  const grid = (
    <VirtualNumberGrid
      handle={gridRef}
      total={totalTickets}
      renderCell={renderCell}
      height="420px"
      testId="entries-grid"
      label={`Ticket numbers 1 to ${totalTickets}${onPick ? ': choose an available number to pick it' : ''}`}
      pattern="grid"
    />
  );

  return (
    <div>
      <Toolbar onSubmit={jump} aria-label="Find a ticket number">
        <label htmlFor="grid-jump" className="visually-hidden">
          Ticket number
        </label>
        <input
          id="grid-jump"
          type="number"
          inputMode="numeric"
          min={1}
          max={totalTickets}
          placeholder={`1 - ${totalTickets}`}
          value={jumpTo}
          onChange={(e) => setJumpTo(e.target.value)}
        />
        <button type="submit">Go to number</button>
        <Legend looks={GRID_LOOKS} />
      </Toolbar>
      <StaleNumbers stale={live?.stale ?? false}>
        {onPick ? (
          <Pickable onClick={click} onKeyDown={key}>
            {grid}
          </Pickable>
        ) : (
          grid
        )}
      </StaleNumbers>
    </div>
  );
}
