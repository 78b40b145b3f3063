import { useEffect, useState } from 'react';
import styled, { keyframes } from 'styled-components';

const pulse = keyframes`
  from { transform: scale(0.96); }
  to { transform: scale(1.04); }
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
  p { margin: 0; opacity: 0.9; }
`;

const Drum = styled.div`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: 3rem;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.colors.accent};
  animation: ${pulse} 0.35s ease-in-out infinite alternate;
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

/** Random numbers for the drum while the result is on its way (for show only: the server drew). */
function useSpinningNumber(totalTickets: number, spinning: boolean): number {
  const [n, setN] = useState(1);
  useEffect(() => {
    if (!spinning) return;
    const timer = setInterval(() => setN(1 + Math.floor(Math.random() * totalTickets)), 80);
    return () => clearInterval(timer);
  }, [totalTickets, spinning]);
  return n;
}

/** The moment of the draw, for everyone watching; without motion when the visitor asked for none. */
export function DrawReveal({
  totalTickets,
  reducedMotion,
}: {
  totalTickets: number;
  reducedMotion: boolean;
}) {
  const n = useSpinningNumber(totalTickets, !reducedMotion);
  return (
    <Panel aria-labelledby="draw-reveal-title" data-testid="draw-reveal">
      <h2 id="draw-reveal-title" aria-live="polite">
        The draw is happening now…
      </h2>
      {reducedMotion ? <p>Picking the winning ticket.</p> : <Drum aria-hidden="true">{n}</Drum>}
      <p>The winning number appears here in a moment.</p>
    </Panel>
  );
}
