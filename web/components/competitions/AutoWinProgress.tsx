import styled from 'styled-components';
import { formatUkDateTime } from '../../format';

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

const Track = styled.div`
  height: 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.success};
  overflow: hidden;
`;

const Fill = styled.div`
  height: 100%;
  background: ${({ theme }) => theme.colors.success};
`;

/**
 * An auto-win competition has no draw time to count down to: it is drawn when its last ticket
 * sells, or at its closing date. So it counts down tickets instead (docs/product.md#competition-cards).
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
  // The real share sold: the bar is the countdown to the draw, so it may reach the end.
  const pct = totalTickets > 0 ? Math.min(100, (ticketsSold / totalTickets) * 100) : 0;
  return (
    <Panel data-testid="auto-win-progress">
      <strong>Auto Win Competition</strong>
      <p data-testid="tickets-left">
        {left.toLocaleString('en-GB')} of {totalTickets.toLocaleString('en-GB')}{' '}
        {left === 1 ? 'ticket' : 'tickets'} left: drawn the moment the last one sells
      </p>
      <Track
        role="progressbar"
        aria-label="Tickets sold towards the draw"
        aria-valuemin={0}
        aria-valuemax={totalTickets}
        aria-valuenow={ticketsSold}
        aria-valuetext={`${ticketsSold.toLocaleString('en-GB')} of ${totalTickets.toLocaleString('en-GB')} sold, ${left.toLocaleString('en-GB')} left`}
      >
        <Fill style={{ width: `${pct}%` }} />
      </Track>
      <p>Closes {formatUkDateTime(endDate)} if not sold out</p>
    </Panel>
  );
}
