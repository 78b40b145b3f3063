import styled from 'styled-components';
import { formatUkDateTime } from '../../../contract/londonTime';

const Panel = styled.div`
  display: grid;
  gap: 6px;
  background: ${({ theme }) => theme.colors.successBg};
  color: ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  strong { color: ${({ theme }) => theme.colors.success}; font-size: ${({ theme }) => theme.fontSizes.md}; }
  p { margin: 0; }
`;

/**
 * An auto-win competition has no draw time to count down to: it is drawn when its last ticket
 * sells, or at its closing date. So it counts down tickets instead, next to the tickets-sold bar
 * (docs/product.md#competition-cards).
 */
export function AutoWinProgress({
  ticketsSold,
  totalTickets,
  endDate,
}: {
  ticketsSold: number;
  totalTickets: number;
  endDate: string;
}) {
  const left = Math.max(0, totalTickets - ticketsSold);
  return (
    <Panel data-testid="auto-win-progress">
      <strong>Auto Win Competition</strong>
      <p data-testid="tickets-left">
        {left.toLocaleString('en-GB')} of {totalTickets.toLocaleString('en-GB')}{' '}
        {left === 1 ? 'ticket' : 'tickets'} left: drawn the moment the last one sells
      </p>
      <p>Closes {formatUkDateTime(endDate)} if not sold out</p>
    </Panel>
  );
}
