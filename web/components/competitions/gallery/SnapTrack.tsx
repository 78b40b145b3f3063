import styled, { css } from 'styled-components';

// The pieces both the page's gallery and its full-screen view are made of: a scroll-snap track
// of full-width slides, and the round Previous / Next buttons over it.

/** The track: one slide a screen, snapped; no scrollbar (the buttons and counter say where you are). */
export const Track = styled.div`
  display: flex;
  width: 100%;
  height: 100%;
  overflow-x: auto;
  overflow-y: hidden;
  scroll-snap-type: x mandatory;
  overscroll-behavior-x: contain;
  scrollbar-width: none;
  &::-webkit-scrollbar { display: none; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.accent}; outline-offset: -3px; }
`;

export const Slide = styled.div`
  flex: 0 0 100%;
  height: 100%;
  scroll-snap-align: start;
  scroll-snap-stop: always;
`;

const round = css`
  position: absolute;
  display: grid;
  place-items: center;
  width: 44px;
  height: 44px;
  border: 0;
  border-radius: 50%;
  background: rgba(255, 255, 255, 0.92);
  color: ${({ theme }) => theme.colors.brand};
  font-size: 26px;
  line-height: 1;
  cursor: pointer;
  box-shadow: ${({ theme }) => theme.shadows.card};
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.brand}; outline-offset: 2px; }
`;

/** Previous (left) or Next (right), half-way down the picture. */
export const StepButton = styled.button<{ $side: 'previous' | 'next' }>`
  ${round}
  top: 50%;
  transform: translateY(-50%);
  ${({ $side }) => ($side === 'previous' ? 'left: 8px;' : 'right: 8px;')}
`;

/** A round button in a corner of the picture (full screen, close). */
export const CornerButton = styled.button`
  ${round}
  top: 8px;
  right: 8px;
  font-size: 20px;
`;

/** "2 / 5" over the picture's bottom edge. */
export const Counter = styled.p`
  position: absolute;
  left: 50%;
  bottom: 8px;
  transform: translateX(-50%);
  margin: 0;
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: rgba(6, 26, 51, 0.7);
  color: #fff;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
`;

/** Previous and Next (wrapping, as the keys do) and the 'n of m' counter, announced politely. */
export function StepControls({
  index,
  count,
  goTo,
  counterTestId,
}: {
  index: number;
  count: number;
  goTo: (index: number) => void;
  counterTestId: string;
}) {
  return (
    <>
      <StepButton
        type="button"
        $side="previous"
        aria-label="Previous picture"
        onClick={() => goTo(index - 1)}
      >
        ‹
      </StepButton>
      <StepButton type="button" $side="next" aria-label="Next picture" onClick={() => goTo(index + 1)}>
        ›
      </StepButton>
      <Counter aria-live="polite" data-testid={counterTestId}>
        {index + 1} of {count}
      </Counter>
    </>
  );
}
