import { type RefObject, useEffect, useState } from 'react';
import styled, { createGlobalStyle } from 'styled-components';
import { formatPounds, penceToPounds, poundsToPence } from '../../../contract/money';
import { media } from '../../theme/theme';
import { Button } from '../ui/Button';
import { plural } from './selection';

// A phone's buy bar (issue 39, "Nothing hidden"): once the purchase panel's own buttons scroll out
// of view, the price and the buy action stay at the bottom of the screen. Below md only; a modal
// dialog (skill question, selector, payment) sits above it in the top layer.

const Bar = styled.div`
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 40;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  padding-bottom: calc(${({ theme }) => theme.space.xs} + env(safe-area-inset-bottom));
  background: ${({ theme }) => theme.colors.surface};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
  box-shadow: 0 -2px 10px rgba(0, 0, 0, 0.12);
  p { margin: 0; font-weight: 700; }
  small { font-weight: 400; color: ${({ theme }) => theme.colors.textMuted}; }
  ${media.md} { display: none; }
`;

/** While the bar shows, the page ends above it, so it never covers the footer's last lines. */
const RoomForBar = createGlobalStyle`
  @media (max-width: 767.98px) { body { padding-bottom: 72px; } }
`;

/** True while the element is out of the viewport (false where there is no IntersectionObserver). */
function useOutOfView(ref: RefObject<Element | null>): boolean {
  const [out, setOut] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setOut(!entry?.isIntersecting));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return out;
}

export function StickyBuyBar({
  panelButtons,
  ticketPrice,
  quantity,
  onBuy,
  disabled,
  buying,
}: {
  /** The purchase panel's own buttons: the bar shows only while they are out of view. */
  panelButtons: RefObject<Element | null>;
  ticketPrice: number;
  quantity: number;
  onBuy: () => void;
  disabled: boolean;
  buying: boolean;
}) {
  const show = useOutOfView(panelButtons);
  if (!show) return null;
  return (
    <Bar data-testid="sticky-buy-bar" role="region" aria-label="Buy tickets">
      <RoomForBar />
      <p>
        {formatPounds(ticketPrice)} <small>per ticket</small>
      </p>
      <Button type="button" onClick={onBuy} disabled={disabled || buying}>
        {buying
          ? 'Adding...'
          : `Buy ${quantity} ${plural(quantity, 'ticket')} · ${formatPounds(penceToPounds(poundsToPence(ticketPrice) * quantity))}`}
      </Button>
    </Bar>
  );
}
