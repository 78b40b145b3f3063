import { useVirtualizer } from '@tanstack/react-virtual';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import type { CompetitionEntry } from '../../../contract/competitions';
import { type LiveCompetition, type NumberState, numberState } from '../../live/competitionStore';

const CELL = 58; // px per cell, gap included
const ROW = 40;

const Scroller = styled.div`
  height: 420px;
  overflow: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  position: relative;
  contain: strict;
`;

const Row = styled.div`
  position: absolute;
  left: 0;
  top: 0;
  width: 100%;
  display: flex;
  gap: 4px;
  padding: 2px 6px;
`;

const CELL_COLOURS = {
  available: { border: 'success', background: 'successBg', color: 'success' },
  sold: { border: 'danger', background: 'danger', color: 'textInverse' },
  reserved: { border: 'warning', background: 'warningBg', color: 'warning' },
  mine: { border: 'info', background: 'infoBg', color: 'info' },
} as const;

const Cell = styled.span<{ $state: NumberState }>`
  flex: 0 0 ${CELL - 4}px;
  height: ${ROW - 6}px;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border-radius: ${({ theme }) => theme.radii.sm};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-variant-numeric: tabular-nums;
  font-weight: 600;
  border: 1px solid ${({ $state, theme }) => theme.colors[CELL_COLOURS[$state].border]};
  background: ${({ $state, theme }) => theme.colors[CELL_COLOURS[$state].background]};
  color: ${({ $state, theme }) => theme.colors[CELL_COLOURS[$state].color]};
`;

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
    min-height: 40px;
    padding: 0 ${({ theme }) => theme.space.md};
    border-radius: ${({ theme }) => theme.radii.md};
    border: 1px solid ${({ theme }) => theme.colors.brand};
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.brand};
    font-weight: 600;
    cursor: pointer;
  }
`;

const Legend = styled.span`
  display: inline-flex;
  gap: ${({ theme }) => theme.space.md};
  margin-left: auto;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  span::before {
    content: '';
    display: inline-block;
    width: 12px;
    height: 12px;
    border-radius: 3px;
    margin-right: 6px;
    vertical-align: -1px;
  }
  span[data-legend='available']::before { background: ${({ theme }) => theme.colors.successBg}; border: 1px solid ${({ theme }) => theme.colors.success}; }
  span[data-legend='reserved']::before { background: ${({ theme }) => theme.colors.warningBg}; border: 1px solid ${({ theme }) => theme.colors.warning}; }
  span[data-legend='purchased']::before { background: ${({ theme }) => theme.colors.danger}; }
`;

/** Maps each number to the index of its owner in `entries` (-1 = not sold). */
function ownerIndex(totalTickets: number, entries: CompetitionEntry[]): Int32Array {
  const owners = new Int32Array(totalTickets + 1).fill(-1);
  entries.forEach((entry, i) => {
    for (const n of entry.ticketNumbers) if (n >= 1 && n <= totalTickets) owners[n] = i;
  });
  return owners;
}

const STATE_LABEL: Record<NumberState, string> = {
  available: 'Available',
  reserved: 'This number is temporarily reserved by another user',
  mine: 'Reserved in your cart',
  sold: 'Purchased',
};

/**
 * Every ticket number from 1 to totalTickets with its live state (available, reserved, in your
 * cart, purchased) and the owner on hover. Only the rows in view are in the DOM, so 100,000
 * numbers cost the same as 100.
 */
export function EntriesGrid({
  totalTickets,
  entries,
  live,
}: {
  totalTickets: number;
  entries: CompetitionEntry[];
  /** Live state from the socket; until it arrives, the entries list decides. */
  live?: LiveCompetition | undefined;
}) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(10);
  const [jumpTo, setJumpTo] = useState('');
  const owners = useMemo(() => ownerIndex(totalTickets, entries), [totalTickets, entries]);
  const rows = Math.ceil(totalTickets / columns);

  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const measure = () => setColumns(Math.max(4, Math.floor((el.clientWidth - 12) / CELL)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ROW,
    overscan: 4,
  });

  const jump = (e: FormEvent) => {
    e.preventDefault();
    const n = Number(jumpTo);
    if (Number.isInteger(n) && n >= 1 && n <= totalTickets) {
      virtualizer.scrollToIndex(Math.floor((n - 1) / columns), { align: 'center' });
    }
  };

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
        <Legend aria-hidden="true">
          <span data-legend="available">Available</span>
          <span data-legend="reserved">Reserved</span>
          <span data-legend="purchased">Purchased</span>
        </Legend>
      </Toolbar>
      <Scroller
        ref={scrollerRef}
        data-testid="entries-grid"
        aria-label={`Ticket numbers 1 to ${totalTickets}`}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const first = row.index * columns + 1;
            const last = Math.min(totalTickets, first + columns - 1);
            const cells = [];
            for (let n = first; n <= last; n++) {
              const owner = owners[n] ?? -1;
              const state: NumberState = live ? numberState(live, n) : owner >= 0 ? 'sold' : 'available';
              const ownerName = owner >= 0 ? entries[owner]?.ownerName : undefined;
              cells.push(
                <Cell
                  key={n}
                  $state={state}
                  data-number={n}
                  data-state={state === 'sold' ? 'purchased' : state}
                  title={`Ticket #${n}: ${STATE_LABEL[state]}${state === 'sold' && ownerName ? ` by ${ownerName}` : ''}`}
                >
                  {n}
                </Cell>,
              );
            }
            return (
              <Row key={row.key} style={{ transform: `translateY(${row.start}px)`, height: ROW }}>
                {cells}
              </Row>
            );
          })}
        </div>
      </Scroller>
    </div>
  );
}
