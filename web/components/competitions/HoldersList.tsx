import { useState } from 'react';
import styled from 'styled-components';
import type { CompetitionEntry } from '../../../contract/competitions';

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
`;

const Item = styled.li`
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm};
  background: ${({ theme }) => theme.colors.surface};
  header { display: flex; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; font-weight: 600; }
  p { margin: 4px 0 0; font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; word-spacing: 2px; }
  button { border: 0; background: none; color: ${({ theme }) => theme.colors.info}; cursor: pointer; padding: 0; }
`;

const PREVIEW = 60;

function Holder({ entry }: { entry: CompetitionEntry }) {
  const [all, setAll] = useState(false);
  const numbers = [...entry.ticketNumbers].sort((a, b) => a - b);
  const shown = all ? numbers : numbers.slice(0, PREVIEW);
  const count = numbers.length;
  return (
    <Item>
      <header>
        <span>{entry.ownerName}</span>
        <span>
          {count} {count === 1 ? 'ticket' : 'tickets'}
        </span>
      </header>
      <p>
        {shown.join(', ')}
        {count > PREVIEW && (
          <>
            {' '}
            <button type="button" onClick={() => setAll((a) => !a)}>
              {all ? 'Show fewer' : `Show all ${count} numbers`}
            </button>
          </>
        )}
      </p>
    </Item>
  );
}

export const enteredHeading = (people: number) =>
  `${people} ${people === 1 ? 'person has' : 'people have'} entered this competition`;

export function HoldersList({ entries }: { entries: CompetitionEntry[] }) {
  return (
    <List aria-label="Ticket holders">
      {entries.map((entry) => (
        <Holder key={`${entry.ownerName}-${entry.ticketNumbers[0]}`} entry={entry} />
      ))}
    </List>
  );
}
