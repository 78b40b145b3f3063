import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { CREDIT_MINIMUM_SPEND_PENCE, formatPence, formatPounds } from '../../../contract/money';
import { media } from '../../theme/theme';
import { offerLine, useSignUpOfferForVisitor } from '../promo/signUpOffer';

const Bar = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.xl} ${theme.space.xs} ${theme.space.md}`};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.accentText};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
  text-align: center;
  /* The offer is known only after /api/session and /api/promotions/current answer, after the
     first paint: above the page it pushed everything down (CLS 0.11). It sits last in the page's
     flow instead, so arriving moves nothing, and sticks to the bottom of the viewport until the
     page is scrolled to its own slot under the footer (so it never covers the footer's links). */
  position: sticky;
  bottom: 0;
  z-index: 40;
  box-shadow: 0 -2px 10px rgba(0, 0, 0, 0.15);
`;

const Desktop = styled.span`
  display: none;
  ${media.md} { display: inline; }
`;
const Mobile = styled.span`
  ${media.md} { display: none; }
`;

const TermsLink = styled(Link)`
  color: inherit;
`;

const SignUp = styled(Link)`
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  text-decoration: none;
  white-space: nowrap;
`;

const Close = styled.button`
  position: absolute;
  right: ${({ theme }) => theme.space.xs};
  top: 50%;
  transform: translateY(-50%);
  border: 0;
  background: transparent;
  color: inherit;
  font-size: 1.25rem;
  line-height: 1;
  cursor: pointer;
  padding: 4px 8px;
`;

/**
 * The sign-up offer, from the live promotion, to signed-out visitors only; nothing when no
 * promotion is running. Dismissing hides it until the next page load (deliberately not remembered).
 */
export function PromoBanner() {
  const [open, setOpen] = useState(true);
  const offer = useSignUpOfferForVisitor();
  const bar = useRef<HTMLDivElement>(null);
  const shown = open && !!offer;
  // Its height, for what else sticks to the bottom (a phone's buy bar sits just above it).
  useEffect(() => {
    const el = bar.current;
    if (!shown || !el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--promo-banner-height', `${el.offsetHeight}px`),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty('--promo-banner-height');
    };
  }, [shown]);
  if (!shown) return null;
  const amount = formatPounds(offer.creditAmount);
  return (
    <Bar ref={bar} role="region" aria-label="New customer offer">
      <Desktop>{offerLine(offer)}</Desktop>
      <Mobile>
        {amount} credit for new accounts. Use it on baskets of {formatPence(CREDIT_MINIMUM_SPEND_PENCE)} or
        more. <TermsLink href="/terms">Terms apply</TermsLink>
      </Mobile>
      <SignUp href="/auth?tab=register">Sign Up Now</SignUp>
      <Close type="button" aria-label="Dismiss offer" onClick={() => setOpen(false)}>
        ×
      </Close>
    </Bar>
  );
}
