import styled from 'styled-components';
import { DEFAULT_TOTAL_TICKETS, progressPercent } from '../../../contract/competitions';

const Track = styled.div`
  height: 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.muted};
  overflow: hidden;
`;

const Fill = styled.div`
  height: 100%;
  background: linear-gradient(90deg, ${({ theme }) => theme.colors.accent}, ${({ theme }) => theme.colors.accentDark});
  border-radius: inherit;
`;

const Label = styled.p`
  display: flex;
  justify-content: space-between;
  margin: 0 0 4px;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

/** 'Tickets Sold x / total' with a bar capped between 0 and 95 percent (spec). */
export function ProgressBar({ ticketsSold, totalTickets }: { ticketsSold: number; totalTickets: number }) {
  const total = totalTickets > 0 ? totalTickets : DEFAULT_TOTAL_TICKETS;
  const pct = progressPercent(ticketsSold, total);
  return (
    <div>
      <Label>
        <span>
          Tickets Sold {ticketsSold.toLocaleString('en-GB')} / {total.toLocaleString('en-GB')}
        </span>
      </Label>
      <Track
        role="progressbar"
        aria-label="Tickets sold"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={ticketsSold}
      >
        <Fill style={{ width: `${pct}%` }} data-testid="progress-fill" />
      </Track>
    </div>
  );
}
