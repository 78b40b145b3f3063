import styled from 'styled-components';
import { useCountdown } from '../competitions/useCountdown';

const Timer = styled.span<{ $expired: boolean; $urgent: boolean }>`
  display: inline-block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
  font-variant-numeric: tabular-nums;
  color: ${({ $expired, $urgent, theme }) =>
    $expired ? theme.colors.danger : $urgent ? theme.colors.warning : theme.colors.textMuted};
`;

/** 'Reserved for m:ss' on the server clock, 'Expired' at zero (the server then releases the item). */
export function ReservationTimer({ expiresAt }: { expiresAt: string }) {
  const { days, hours, minutes, seconds, done } = useCountdown(expiresAt);
  const totalMinutes = days * 1440 + hours * 60 + minutes;
  return (
    <Timer role="timer" data-testid="reservation-timer" $expired={done} $urgent={totalMinutes < 1}>
      {done ? 'Expired' : `Reserved for ${totalMinutes}:${String(seconds).padStart(2, '0')}`}
    </Timer>
  );
}
