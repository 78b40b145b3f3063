import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { useAuth } from '../../stores/auth';
import { media } from '../../theme/theme';
import { HoldExpiryNotice } from '../cart/HoldExpiryNotice';
import { AccountMenu, MobileAccountLinks } from './AccountMenu';
import { CartMenu } from './CartMenu';
import { Logo } from './Logo';
import { Toaster } from './Toaster';

const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/competitions', label: 'Competitions' },
  // Who won is part of what the site is: in the main navigation, not only the footer.
  { href: '/winners', label: 'Winners' },
  { href: '/how-to-play', label: 'How to Play' },
  { href: '/about', label: 'About Us' },
  { href: '/faq', label: 'FAQs' },
] as const;

const Sticky = styled.header`
  position: sticky;
  top: 0;
  z-index: 50;
  box-shadow: 0 2px 10px rgba(0, 0, 0, 0.15);
`;

const Bar = styled.div`
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
`;

const Inner = styled.div`
  max-width: ${({ theme }) => theme.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.xs};
  min-height: 64px;
  ${media.sm} { gap: ${({ theme }) => theme.space.md}; }
`;

// The logo never gives up width to the buttons beside it (it was squeezed at 390 px).
const HomeLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  flex-shrink: 0;
  text-decoration: none;
`;

// Six links (Winners among them) fit on one line from 1024 px: tighter until the xl width.
const DesktopNav = styled.nav`
  display: none;
  ${media.lg} {
    display: flex;
    gap: 2px;
  }
  ${media.xl} { gap: ${({ theme }) => theme.space.xs}; }
`;

const NavItem = styled(Link)<{ $active: boolean }>`
  color: ${({ theme }) => theme.colors.textInverse};
  text-decoration: none;
  font-weight: 600;
  white-space: nowrap;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.xs}`};
  ${media.xl} { padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`}; }
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ $active, theme }) => ($active ? theme.colors.brandLight : 'transparent')};
  &:hover { background: ${({ theme }) => theme.colors.brandLight}; }
`;

const Actions = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  ${media.sm} { gap: ${({ theme }) => theme.space.sm}; }
`;

const DesktopOnly = styled.div`
  display: none;
  ${media.lg} { display: block; }
`;

const LoginLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  min-height: 40px;
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.accentText};
  font-weight: 700;
  text-decoration: none;
  /* On a phone the label takes two short lines, so the logo keeps its size. */
  max-width: 6.5rem;
  padding: 2px ${({ theme }) => theme.space.xs};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  line-height: 1.15;
  text-align: center;
  ${media.sm} {
    max-width: none;
    padding: 0 ${({ theme }) => theme.space.md};
    font-size: inherit;
    white-space: nowrap;
  }
`;

const MenuButton = styled.button`
  ${media.lg} { display: none; }
  border: 1px solid rgba(255, 255, 255, 0.4);
  background: transparent;
  color: ${({ theme }) => theme.colors.textInverse};
  border-radius: ${({ theme }) => theme.radii.md};
  min-width: 44px;
  min-height: 44px;
  font-size: 1.25rem;
  cursor: pointer;
`;

const MobileNav = styled.nav`
  display: flex;
  flex-direction: column;
  padding: ${({ theme }) => `0 ${theme.space.md} ${theme.space.md}`};
  background: ${({ theme }) => theme.colors.brand};
  ${media.lg} { display: none; }
  a { padding: ${({ theme }) => theme.space.sm}; }
`;

export function Header() {
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const user = useAuth((s) => s.user);
  // Close the mobile menu whenever the page changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation
  useEffect(() => {
    setMenuOpen(false);
  }, [location]);

  const links = NAV_LINKS.map((l) => (
    <NavItem
      key={l.href}
      href={l.href}
      $active={location === l.href}
      aria-current={location === l.href ? 'page' : undefined}
    >
      {l.label}
    </NavItem>
  ));

  return (
    <Sticky>
      <Bar>
        <Inner>
          <HomeLink href="/" aria-label="Home">
            <Logo />
          </HomeLink>
          <DesktopNav aria-label="Main">{links}</DesktopNav>
          <Actions>
            <CartMenu />
            {user ? (
              <DesktopOnly>
                <AccountMenu user={user} />
              </DesktopOnly>
            ) : (
              <LoginLink href="/auth">Login / Register</LoginLink>
            )}
            <MenuButton
              type="button"
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((o) => !o)}
            >
              {menuOpen ? '×' : '☰'}
            </MenuButton>
          </Actions>
        </Inner>
        {menuOpen && (
          <MobileNav id="mobile-menu" aria-label="Main">
            {links}
            {user && <MobileAccountLinks user={user} />}
          </MobileNav>
        )}
      </Bar>
      <HoldExpiryNotice />
      <Toaster />
    </Sticky>
  );
}
