import { useEffect, useRef } from 'react';
import styled from 'styled-components';
import { CATEGORY_FILTERS, type CategoryFilter, categoryLabel } from '../../../contract/categories';

const Bar = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.xs};
  overflow-x: auto;
  padding: ${({ theme }) => `${theme.space.xs} 0 ${theme.space.sm}`};
  scrollbar-width: thin;
`;

const Chip = styled.button<{ $active: boolean }>`
  flex: 0 0 auto;
  min-height: 40px;
  padding: 0 ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.pill};
  border: 1px solid ${({ $active, theme }) => ($active ? theme.colors.brand : theme.colors.border)};
  background: ${({ $active, theme }) => ($active ? theme.colors.brand : theme.colors.surface)};
  color: ${({ $active, theme }) => ($active ? theme.colors.textInverse : theme.colors.text)};
  font-weight: 600;
  cursor: pointer;
`;

export function CategoryBar({
  value,
  onChange,
}: {
  value: CategoryFilter;
  onChange: (c: CategoryFilter) => void;
}) {
  const barRef = useRef<HTMLDivElement>(null);
  // On narrow screens the bar scrolls sideways: keep the selected chip in view (e.g. from a footer link).
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the selection changes
  useEffect(() => {
    const active = barRef.current?.querySelector<HTMLElement>('[aria-pressed="true"]');
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [value]);
  return (
    <Bar ref={barRef} role="group" aria-label="Filter by category">
      {CATEGORY_FILTERS.map((c) => (
        <Chip
          key={c}
          type="button"
          $active={c === value}
          aria-pressed={c === value}
          onClick={() => onChange(c)}
        >
          {categoryLabel(c)}
        </Chip>
      ))}
    </Bar>
  );
}
