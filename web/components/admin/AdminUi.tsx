import { type FormEvent, type ReactNode, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { media } from '../../theme/theme';
import { Button, ButtonLink } from '../ui/Button';
import { PageTitle } from '../ui/Page';

// The pieces every admin screen shares: the title bar with its way back, tabs, and tables that
// scroll inside their own box so a phone never scrolls the page sideways.

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h1 { margin: 0; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
`;

export function AdminHeader({
  title,
  back = { href: '/admin', label: 'Back to Admin' },
  children,
}: {
  title: string;
  back?: { href: string; label: string } | null;
  children?: ReactNode;
}) {
  return (
    <Bar>
      <PageTitle>{title}</PageTitle>
      <Actions>
        {children}
        {back && (
          <Link href={back.href} asChild>
            <ButtonLink $variant="ghost">{back.label}</ButtonLink>
          </Link>
        )}
      </Actions>
    </Bar>
  );
}

export const TableWrap = styled.div`
  overflow-x: auto;
  max-width: 100%;
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
`;

export const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  th, td {
    padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
    text-align: left;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
    vertical-align: middle;
  }
  th {
    background: ${({ theme }) => theme.colors.muted};
    color: ${({ theme }) => theme.colors.brand};
    font-weight: 700;
    white-space: nowrap;
  }
  td.nowrap, td.num { white-space: nowrap; }
  td.num { font-variant-numeric: tabular-nums; }
  tbody tr:last-child td { border-bottom: 0; }
`;

/** Small buttons for table rows (44px targets would make rows very tall). */
export const RowActions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.xxs};
  button, a {
    min-height: 36px;
    padding: 0 ${({ theme }) => theme.space.sm};
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
`;

const TabList = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xxs};
  margin-bottom: ${({ theme }) => theme.space.md};
  border-bottom: 2px solid ${({ theme }) => theme.colors.border};
  button {
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space.md};
    border: 0;
    border-bottom: 3px solid transparent;
    margin-bottom: -2px;
    background: none;
    font: inherit;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.textMuted};
    cursor: pointer;
  }
  button[aria-selected='true'] {
    color: ${({ theme }) => theme.colors.brand};
    border-bottom-color: ${({ theme }) => theme.colors.accent};
  }
`;

/** Buttons with tab semantics; the panel below is the caller's. */
export function Tabs<K extends string>({
  tabs,
  value,
  onChange,
  label,
}: {
  tabs: ReadonlyArray<{ key: K; label: string }>;
  value: K;
  onChange: (key: K) => void;
  label: string;
}) {
  return (
    <TabList role="tablist" aria-label={label}>
      {tabs.map((t) => (
        <button
          key={t.key}
          type="button"
          role="tab"
          aria-selected={t.key === value}
          onClick={() => onChange(t.key)}
        >
          {t.label}
        </button>
      ))}
    </TabList>
  );
}

const tones = {
  active: 'success',
  completed: 'success',
  sent: 'success',
  admin: 'info',
  pending: 'warning',
  archived: 'warning',
  ended: 'textMuted',
  failed: 'danger',
  cancelled: 'danger',
  refunded: 'danger',
} as const;

/** A coloured pill for a status or role. */
export const StatusBadge = styled.span<{ $status: string }>`
  display: inline-block;
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  text-transform: capitalize;
  white-space: nowrap;
  color: ${({ theme }) => theme.colors.textInverse};
  background: ${({ $status, theme }) => theme.colors[tones[$status as keyof typeof tones] ?? 'brandLight']};
`;

/** A row of filters or actions above a table; wraps on a phone. */
export const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: flex-end;
  margin-bottom: ${({ theme }) => theme.space.md};
  ${media.md} { justify-content: space-between; }
`;

/** Labelled select / textarea / input styles matching Form's Field. */
export const Control = styled.div`
  display: grid;
  gap: 4px;
  min-width: 0;
  label { font-weight: 600; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  input, select, textarea {
    min-height: 44px;
    width: 100%;
    padding: 0 ${({ theme }) => theme.space.sm};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
    font: inherit;
  }
  textarea { padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.sm}; min-height: 88px; resize: vertical; }
  [aria-invalid='true'] { border-color: ${({ theme }) => theme.colors.danger}; }
  small { color: ${({ theme }) => theme.colors.danger}; }
  small.hint { color: ${({ theme }) => theme.colors.textMuted}; }
`;

const SearchForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: flex-end;
  > div { flex: 1 1 200px; }
`;

/** A search box and its button, in a Toolbar: submitting applies what was typed, trimmed. */
export function SearchBox({
  id,
  label,
  placeholder,
  onSearch,
}: {
  id: string;
  label: string;
  placeholder: string;
  onSearch: (search: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(typed.trim());
  };
  return (
    <SearchForm onSubmit={submit} role="search">
      <Control>
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="search"
          value={typed}
          placeholder={placeholder}
          onChange={(e) => setTyped(e.target.value)}
        />
      </Control>
      <Button type="submit" $variant="secondary">
        Search
      </Button>
    </SearchForm>
  );
}

/** Two or three form controls side by side from tablet width up. */
export const FieldRow = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  ${media.sm} { grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); }
`;

export const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space.xs};
  margin-top: ${({ theme }) => theme.space.md};
`;

export const Muted = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  margin: 0;
`;
