import { useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { media } from '../../theme/theme';

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
  position: relative;
  text-align: center;
`;

const Desktop = styled.span`
  display: none;
  ${media.md} { display: inline; }
`;
const Mobile = styled.span`
  ${media.md} { display: none; }
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

/** The new-user offer. Dismissing hides it until the next page load (it is deliberately not remembered). */
export function PromoBanner() {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Bar role="region" aria-label="New user offer">
      <Desktop>New User Offer: Get £5.00 site credit FREE when you sign up before 30th July!</Desktop>
      <Mobile>Get £5.00 FREE! Terms apply</Mobile>
      <SignUp href="/auth?tab=register">Sign Up Now</SignUp>
      <Close type="button" aria-label="Dismiss offer" onClick={() => setOpen(false)}>
        ×
      </Close>
    </Bar>
  );
}
