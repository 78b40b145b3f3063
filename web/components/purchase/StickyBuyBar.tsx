import { type RefObject, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import type { Bundle } from '../../../contract/bundles';
import { formatPounds, poundsToPence } from '../../../contract/money';
import { media } from '../../theme/theme';
import { Button } from '../ui/Button';
import { quantityPrice } from './BundleOffers';
import { plural } from './selection';

// A phone's buy bar (issue 39, "Nothing hidden"): once the purchase panel's own buttons scroll out
// of view, the price and the buy action stay at the bottom of the screen. Below md only; a modal
// dialog (skill question, selector, payment) sits above it in the top layer. It is drawn into a
// slot at the end of the competition page (BuyBarSlot), sticky there: it stays in view while the
// page scrolls and stops at the page's end, so it never covers the footer; and it sits above the
// sign-up offer, which sticks to the bottom too (PromoBanner.tsx gives its height).

/** The page's slot for the bar: last in the competition page, sticky at the bottom. */
export const BuyBarSlot = styled.div`
  position: sticky;
  bottom: var(--promo-banner-height, 0px);
  z-index: 40;
  margin: 0 -${({ theme }) => theme.space.md};
  ${media.md} { display: none; }
`;

const Bar = styled.div`
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
  slot,
  panelButtons,
  ticketPrice,
  bundles = [],
  quantity,
  onBuy,
  disabled,
  buying,
}: {
  /** Where the bar is drawn (BuyBarSlot); none, no bar. */
  slot: HTMLElement | null;
  /** The purchase panel's own buttons: the bar shows only while they are out of view. */
  panelButtons: RefObject<Element | null>;
  ticketPrice: number;
  /** The competition's multi-buy offers (pence). */
  bundles?: readonly Bundle[];
  quantity: number;
  onBuy: () => void;
  disabled: boolean;
  buying: boolean;
}) {
  const show = useOutOfView(panelButtons);
  if (!show || !slot) return null;
  return createPortal(
    <Bar data-testid="sticky-buy-bar" role="region" aria-label="Buy tickets">
      <p>
        {formatPounds(ticketPrice)} <small>per ticket</small>
      </p>
      <Button type="button" onClick={onBuy} disabled={disabled || buying}>
        {buying
          ? 'Adding...'
          : `Buy ${quantity} ${plural(quantity, 'ticket')} · ${quantityPrice(quantity, poundsToPence(ticketPrice), bundles)}`}
      </Button>
    </Bar>,
    slot,
  );
}
