import styled from 'styled-components';
import type { AuditEntryView } from '../../../contract/admin';
import { formatDateTime } from '../../../contract/londonTime';
import { Muted } from './AdminUi';

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  li {
    border-left: 3px solid ${({ theme }) => theme.colors.accent};
    padding: 2px ${({ theme }) => theme.space.sm};
    overflow-wrap: anywhere;
  }
  small { color: ${({ theme }) => theme.colors.textMuted}; }
`;

/** 'competition.update' -> 'Competition update'. */
const actionText = (action: string) => {
  const text = action.replace(/[._]/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** A line of what happened, for the entries whose outcome matters more than the change itself. */
const outcomeText = (e: AuditEntryView): string | null => {
  const after = (e.after ?? {}) as {
    winningNumber?: unknown;
    entries?: unknown;
    beaconRound?: unknown;
    number?: unknown;
    name?: unknown;
  };
  if (e.action === 'competition.postal_entry' && typeof after.number === 'number') {
    return `Number ${after.number} to ${String(after.name ?? 'a postal entrant')}`;
  }
  if (e.action === 'competition.draw' && typeof after.winningNumber === 'number') {
    const from =
      typeof after.entries === 'number' ? ` from ${after.entries.toLocaleString('en-GB')} entries` : '';
    const round = typeof after.beaconRound === 'number' ? ` (beacon round ${after.beaconRound})` : '';
    return `Winning number ${after.winningNumber}${from}${round}`;
  }
  return null;
};

/** What an admin changed and when (the audit log rows the server keeps for this record). */
export function AuditTrail({ entries }: { entries: AuditEntryView[] }) {
  if (entries.length === 0) return <Muted>No admin changes recorded.</Muted>;
  return (
    <List aria-label="Audit trail">
      {entries.map((e) => (
        <li key={e.id}>
          <strong>{actionText(e.action)}</strong> by {e.actor.username ?? 'a deleted admin'}
          {outcomeText(e) && <>: {outcomeText(e)}</>}
          <br />
          <small>{formatDateTime(e.at)}</small>
        </li>
      ))}
    </List>
  );
}
