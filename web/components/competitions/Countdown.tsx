import styled from 'styled-components';
import { useCountdown } from './useCountdown';

const Row = styled.div<{ $size: 'sm' | 'lg' }>`
  display: flex;
  gap: ${({ theme }) => theme.space.xs};
  font-variant-numeric: tabular-nums;
`;

const Unit = styled.div<{ $size: 'sm' | 'lg' }>`
  min-width: ${({ $size }) => ($size === 'lg' ? '64px' : '42px')};
  text-align: center;
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ $size }) => ($size === 'lg' ? '8px 6px' : '4px 2px')};
  strong {
    display: block;
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: ${({ $size, theme }) => ($size === 'lg' ? theme.fontSizes.xl : theme.fontSizes.md)};
    line-height: 1.1;
  }
  span {
    font-size: ${({ theme }) => theme.fontSizes.xs};
    opacity: 0.85;
  }
`;

/** Days, hours, minutes and seconds to the draw, ticking every second on the server clock. */
export function Countdown({ endDate, size = 'sm' }: { endDate: string; size?: 'sm' | 'lg' }) {
  const { days, hours, minutes, seconds } = useCountdown(endDate);
  const parts: Array<[number, string]> = [
    [days, 'Days'],
    [hours, 'Hours'],
    [minutes, 'Mins'],
    [seconds, 'Secs'],
  ];
  return (
    <Row
      $size={size}
      role="timer"
      aria-label={`${days} days ${hours} hours ${minutes} minutes ${seconds} seconds`}
    >
      {parts.map(([value, label]) => (
        <Unit key={label} $size={size} aria-hidden="true">
          <strong>{String(value).padStart(2, '0')}</strong>
          <span>{label}</span>
        </Unit>
      ))}
    </Row>
  );
}
