import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type RefObject,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import styled, { css } from 'styled-components';
import { useNearViewport } from '../ui/useNearViewport';

const unsubscribed = () => () => undefined;

export const CELL_WIDTH = 58; // px per cell, gap included
const ROW_HEIGHT = 40;

/** The box every cell takes (EntriesGrid's spans, the selector's buttons): its row's column. */
export const cellBox = css`
  min-width: 0;
  height: ${ROW_HEIGHT - 6}px;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border-radius: ${({ theme }) => theme.radii.sm};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-variant-numeric: tabular-nums;
  font-weight: 600;
`;

/** The outlined buttons beside a grid (Go, Lucky Dip the rest); each toolbar sets its padding. */
export const toolButton = css`
  min-height: 40px;
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.brand};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.brand};
  font-weight: 600;
  cursor: pointer;
`;

const Scroller = styled.div<{ $height: string }>`
  height: ${({ $height }) => $height};
  overflow: auto;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surface};
  position: relative;
  contain: strict;
`;

// Columns share the width, so a row fills the box with no strip left over on the right.
const Row = styled.div<{ $columns: number }>`
  position: absolute;
  left: 0;
  top: 0;
  width: 100%;
  display: grid;
  grid-template-columns: repeat(${({ $columns }) => $columns}, minmax(0, 1fr));
  gap: 4px;
  padding: 2px 6px;
`;

/**
 * What a cell must carry for keyboard access: spread onto the element renderCell returns, which
 * must also carry `data-number`. Only primitives, so a memoised cell re-renders only when its own
 * state changes (a ticket event changes a few cells of the hundreds in view).
 */
export interface GridCellProps {
  id: string;
  /** 0 on the one cell Tab stops at (roving tabindex), -1 on the others. */
  tabIndex: 0 | -1;
  role?: 'gridcell';
}

/** Arrow keys move by one number or one row; Home/End to the row's ends, with Ctrl to 1 and the last. */
function keyTarget(
  e: KeyboardEvent,
  n: number,
  columns: number,
  total: number,
): { target: number; step: number } | undefined {
  const rowStart = n - ((n - 1) % columns);
  switch (e.key) {
    case 'ArrowRight':
      return { target: n + 1, step: 1 };
    case 'ArrowLeft':
      return { target: n - 1, step: -1 };
    case 'ArrowDown':
      return { target: n + columns, step: columns };
    case 'ArrowUp':
      return { target: n - columns, step: -columns };
    case 'Home':
      return e.ctrlKey ? { target: 1, step: 1 } : { target: rowStart, step: 1 };
    case 'End':
      return e.ctrlKey
        ? { target: total, step: -1 }
        : { target: Math.min(total, rowStart + columns - 1), step: -1 };
    default:
      return undefined;
  }
}

/** The row shown before the grid is near the viewport (see `near`). */
const FIRST_ROW: ReadonlyArray<Pick<VirtualItem, 'index' | 'key' | 'start'>> = [
  { index: 0, key: 0, start: 0 },
];

export interface NumberGridHandle {
  /** Scrolls so that number n is in view (centred). */
  /** Brings n's row into view: in the middle, or ('start') at the top, as a range jump wants. */
  scrollToNumber: (n: number, align?: 'center' | 'start') => void;
}

/** The cells of one row: its numbers, each rendered by `cell`. */
function rowCells(
  index: number,
  columns: number,
  total: number,
  cell: (n: number) => ReactNode,
): ReactNode[] {
  const start = index * columns + 1;
  const end = Math.min(total, start + columns - 1);
  const cells: ReactNode[] = [];
  for (let n = start; n <= end; n++) cells.push(cell(n));
  return cells;
}

/** The Tab stop: the active cell while it is rendered and focusable, else the first such in view. */
function tabStopIn(
  rows: ReadonlyArray<Pick<VirtualItem, 'index'>>,
  columns: number,
  total: number,
  active: number,
  canFocus: (n: number) => boolean,
): number | undefined {
  const first = (rows[0]?.index ?? 0) * columns + 1;
  const last = Math.min(total, ((rows.at(-1)?.index ?? -1) + 1) * columns);
  if (active >= first && active <= last && canFocus(active)) return active;
  for (let n = first; n <= last; n++) if (canFocus(n)) return n;
  return undefined;
}

/** How many cells fit across the box (at least 4), measured again whenever it resizes. */
function useColumns(scrollerRef: RefObject<HTMLDivElement | null>) {
  const [columns, setColumns] = useState(10);
  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const measure = () => setColumns(Math.max(4, Math.floor((el.clientWidth - 12) / CELL_WIDTH)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollerRef]);
  return columns;
}

/**
 * The grid's key handler: `target` reads a key as the number to move to (if any); `go` makes it
 * the active cell and scrolls its row in, and it is focused once that row is rendered (which may
 * be only after the scroll).
 */
function useArrowKeys(
  cellId: (n: number) => string,
  target: (e: KeyboardEvent) => number | undefined,
  go: (n: number) => void,
) {
  const pendingFocus = useRef<number | undefined>(undefined);
  // Runs after every render.
  useEffect(() => {
    const n = pendingFocus.current;
    const el = n === undefined ? null : document.getElementById(cellId(n));
    if (!el) return;
    pendingFocus.current = undefined;
    el.focus();
  });
  return (e: KeyboardEvent) => {
    const n = target(e);
    if (n === undefined) return;
    pendingFocus.current = n;
    go(n);
  };
}

export interface VirtualNumberGridProps {
  total: number;
  renderCell: (n: number, cell: GridCellProps) => ReactNode;
  height: string;
  label: string;
  testId?: string;
  handle?: Ref<NumberGridHandle>;
  /** Called with the first number in view, and the last of its row, as the visitor scrolls. */
  onFirstVisible?: (n: number, rowEnd: number) => void;
  pattern?: 'grid' | 'buttons';
  /** False for a cell that cannot take focus (a disabled button). */
  canFocus?: (n: number) => boolean;
  /**
   * Subscribes to changes that may alter `canFocus` without re-rendering the grid (live numbers
   * whose cells re-render themselves), so the Tab stop moves off a number that can no longer take
   * focus; returns the unsubscribe.
   */
  subscribe?: (onChange: () => void) => () => void;
}

/**
 * The numbers 1..total laid out in rows as wide as the box allows. Only the rows in view (plus a
 * few) are in the DOM, so 100,000 numbers cost the same as 100.
 *
 * Keyboard: one Tab stop (the last cell focused, or the first one in view), arrow keys between
 * cells, scrolling the next row in. `pattern` 'grid' makes it an ARIA grid of gridcells (cells that
 * only show a state); 'buttons' keeps a group of the buttons renderCell returns, and `canFocus`
 * skips the disabled ones.
 */
export function VirtualNumberGrid({
  total,
  renderCell,
  height,
  label,
  testId,
  handle,
  onFirstVisible,
  pattern = 'buttons',
  canFocus = () => true,
  subscribe = unsubscribed,
}: VirtualNumberGridProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const idPrefix = useId();
  const cellId = (n: number) => `${idPrefix}-${n}`;
  const columns = useColumns(scrollerRef);
  const [active, setActive] = useState(1);
  const rows = Math.ceil(total / columns);

  // Until the box is near the viewport only its first row renders, unmeasured: a grid below the
  // fold (the entries on a competition page) costs a phone next to nothing until the visitor
  // scrolls towards it or tabs into it. Mounting it whole at once was the page's longest task after
  // hydration (docs/performance.md, Lighthouse). The first row keeps the grid a grid (a row to
  // reach, a cell to Tab to) for assistive technology.
  const near = useNearViewport(scrollerRef);
  const virtualizer = useVirtualizer({
    count: rows,
    enabled: near,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // Enabled, it writes its offset to the box; the box may have been scrolled already (the
    // first row alone sits in a box as tall as every row), so it starts from there, not from 0.
    initialOffset: () => scrollerRef.current?.scrollTop ?? 0,
  });

  useImperativeHandle(
    handle,
    () => ({
      scrollToNumber: (n, align = 'center') =>
        virtualizer.scrollToIndex(Math.floor((n - 1) / columns), { align }),
    }),
    [virtualizer, columns],
  );

  // The virtualizer's first render once enabled has no rows (it measures the box in its layout
  // effect): the first row stays meanwhile, under the same key, so a cell focused in it (a Tab
  // into the grid, which is what scrolls it near) keeps its element and the focus.
  const measured = near ? virtualizer.getVirtualItems() : [];
  const visible = measured.length > 0 ? measured : total > 0 ? FIRST_ROW : [];
  const firstRow = virtualizer.range?.startIndex ?? visible[0]?.index ?? 0;
  useEffect(() => {
    onFirstVisible?.(firstRow * columns + 1, Math.min(total, (firstRow + 1) * columns));
  }, [firstRow, columns, total, onFirstVisible]);

  const onKeyDown = useArrowKeys(
    cellId,
    (e) => {
      const move = keyTarget(e, active, columns, total);
      if (!move) return undefined;
      e.preventDefault();
      let n = move.target;
      while (n >= 1 && n <= total && !canFocus(n)) n += move.step;
      return n >= 1 && n <= total ? n : undefined;
    },
    (n) => {
      setActive(n);
      virtualizer.scrollToIndex(Math.floor((n - 1) / columns), { align: 'auto' });
    },
  );

  // Re-renders the grid only when a change moves the Tab stop, not at every change to a cell.
  const tabStop = useSyncExternalStore(subscribe, () => tabStopIn(visible, columns, total, active, canFocus));

  const asGrid = pattern === 'grid';
  return (
    <Scroller
      ref={scrollerRef}
      $height={height}
      data-testid={testId}
      role={asGrid ? 'grid' : 'group'}
      aria-label={label}
      aria-rowcount={asGrid ? rows : undefined}
      // With nothing focusable in view, the box itself takes focus so it can be scrolled.
      tabIndex={tabStop === undefined ? 0 : undefined}
      onKeyDown={onKeyDown}
      // The focused cell becomes the Tab stop (one handler here rather than one per cell).
      onFocus={(e) => {
        const n = Number((e.target as HTMLElement).dataset.number);
        if (n >= 1) setActive(n);
      }}
    >
      <div style={{ height: near ? virtualizer.getTotalSize() : rows * ROW_HEIGHT, position: 'relative' }}>
        {visible.map((row) => (
          <Row
            key={row.key}
            $columns={columns}
            style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
            role={asGrid ? 'row' : undefined}
            aria-rowindex={asGrid ? row.index + 1 : undefined}
          >
            {rowCells(row.index, columns, total, (n) =>
              renderCell(n, {
                id: cellId(n),
                tabIndex: n === tabStop ? 0 : -1,
                ...(asGrid ? { role: 'gridcell' as const } : {}),
              }),
            )}
          </Row>
        ))}
      </div>
    </Scroller>
  );
}
