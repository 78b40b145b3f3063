import styled, { keyframes } from 'styled-components';
import type { PublicDraw } from '../../../contract/draw';
import { formatLongDate } from '../../../contract/londonTime';

const popIn = keyframes`
  from { transform: scale(0.6); opacity: 0; }
  to { transform: scale(1); opacity: 1; }
`;

const Panel = styled.section`
  border-radius: ${({ theme }) => theme.radii.lg};
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  padding: ${({ theme }) => theme.space.lg};
  text-align: center;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; color: inherit; }
  p { margin: 0; }
  a { color: ${({ theme }) => theme.colors.accent}; font-weight: 600; }
`;

const WinningNumber = styled.p`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: 3rem;
  font-weight: 700;
  line-height: 1.1;
  color: ${({ theme }) => theme.colors.accent};
  animation: ${popIn} 0.5s ease-out;
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

/** The winning number and the winner's public name, shown in place of the buying controls. */
export function WinnerAnnouncement({ draw }: { draw: PublicDraw }) {
  return (
    <Panel aria-labelledby="winner-title" data-testid="draw-winner" aria-live="polite">
      <h2 id="winner-title">Winning ticket</h2>
      <WinningNumber data-testid="winning-number">#{draw.winningNumber}</WinningNumber>
      <p>
        Congratulations to <strong data-testid="winner-name">{draw.winnerName}</strong>!
      </p>
      <p>
        <small>Drawn {formatLongDate(draw.drawnAt)}</small>
      </p>
      <p>
        <a href="#verify-draw">Check this draw yourself</a>
      </p>
    </Panel>
  );
}
