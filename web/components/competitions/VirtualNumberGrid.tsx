import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, type Ref, useEffect, useImperativeHandle, useRef, useState } from 'react';
import styled, { css } from 'styled-components';

export const CELL_WIDTH = 58; // px per cell, gap included
const ROW_HEIGHT = 40;

/** The box every cell takes (EntriesGrid's spans, the selector's buttons). */
export const cellBox = css`
  flex: 0 0 ${CELL_WIDTH - 4}px;
  height: ${ROW_HEIGHT - 6}px;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  border-radius: ${({ theme }) => theme.radii.sm};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-variant-numeric: tabular-nums;
  font-weight: 600;
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

const Row = styled.div`
  position: absolute;
  left: 0;
  top: 0;
  width: 100%;
  display: flex;
  gap: 4px;
  padding: 2px 6px;
`;

export interface NumberGridHandle {
  /** Scrolls so that number n is in view (centred). */
  scrollToNumber: (n: number) => void;
}

/**
 * The numbers 1..total laid out in rows as wide as the box allows. Only the rows in view (plus a
 * few) are in the DOM, so 100,000 numbers cost the same as 100.
 */
export function VirtualNumberGrid({
  total,
  renderCell,
  height,
  label,
  testId,
  handle,
  onFirstVisible,
}: {
  total: number;
  renderCell: (n: number) => ReactNode;
  height: string;
  label: string;
  testId?: string;
  handle?: Ref<NumberGridHandle>;
  /** Called with the first number in view as the visitor scrolls. */
  onFirstVisible?: (n: number) => void;
}) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(10);
  const rows = Math.ceil(total / columns);

  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const measure = () => setColumns(Math.max(4, Math.floor((el.clientWidth - 12) / CELL_WIDTH)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
  });

  useImperativeHandle(
    handle,
    () => ({
      scrollToNumber: (n) => virtualizer.scrollToIndex(Math.floor((n - 1) / columns), { align: 'center' }),
    }),
    [virtualizer, columns],
  );

  const visible = virtualizer.getVirtualItems();
  const firstRow = virtualizer.range?.startIndex ?? visible[0]?.index ?? 0;
  useEffect(() => {
    onFirstVisible?.(firstRow * columns + 1);
  }, [firstRow, columns, onFirstVisible]);

  return (
    <Scroller ref={scrollerRef} $height={height} data-testid={testId} role="group" aria-label={label}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {visible.map((row) => {
          const first = row.index * columns + 1;
          const last = Math.min(total, first + columns - 1);
          const cells: ReactNode[] = [];
          for (let n = first; n <= last; n++) cells.push(renderCell(n));
          return (
            <Row key={row.key} style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}>
              {cells}
            </Row>
          );
        })}
      </div>
    </Scroller>
  );
}
