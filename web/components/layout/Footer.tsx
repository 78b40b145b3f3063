import styled from 'styled-components';
import { Link } from 'wouter';
import { categoryLabel, PUBLIC_CATEGORIES } from '../../../contract/categories';
import { renderTime, useHydrated } from '../../ssr/seed';
import { useSite } from '../../stores/site';
import { media } from '../../theme/theme';

const Outer = styled.footer`
  background: ${({ theme }) => theme.colors.brandDark};
  color: #cbd5e1;
  margin-top: ${({ theme }) => theme.space.xxl};
  a { color: #e2e8f0; text-decoration: none; }
  a:hover { text-decoration: underline; }
`;

const Columns = styled.div`
  max-width: ${({ theme }) => theme.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xl} ${theme.space.md}`};
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  grid-template-columns: 1fr;
  ${media.sm} { grid-template-columns: 1fr 1fr; }
  ${media.lg} { grid-template-columns: 1.4fr 1fr 1fr 1fr; }
`;

const Heading = styled.h2`
  color: ${({ theme }) => theme.colors.textInverse};
  font-size: ${({ theme }) => theme.fontSizes.md};
  margin: 0 0 ${({ theme }) => theme.space.sm};
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
`;

const Bottom = styled.div`
  border-top: 1px solid rgba(255, 255, 255, 0.12);
  max-width: ${({ theme }) => theme.maxWidth};
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.md}`};
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.md};
  align-items: center;
  justify-content: space-between;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.md};
`;

const Icon = styled.img`
  height: 24px;
  width: 24px;
`;

const Card = styled.img`
  height: 28px;
  width: auto;
`;

const QUICK_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/competitions', label: 'All Competitions' },
  { href: '/how-to-play', label: 'How to Play' },
  { href: '/about', label: 'About Us' },
  { href: '/winners', label: 'Winners' },
  { href: '/faq', label: 'FAQs' },
  { href: '/terms', label: 'Terms & Conditions' },
];

/** Who runs the competitions, on every page: the promoter's name and company number (Site Settings). */
function PromoterLine() {
  const { name, companyNumber } = useSite((s) => s.promoter);
  if (!name) return null;
  return (
    <span data-testid="footer-promoter">
      Competitions are run by {name}
      {companyNumber ? `, company number ${companyNumber}` : ''}.
    </span>
  );
}

export function Footer() {
  const siteName = useSite((s) => s.siteName);
  const supportEmail = useSite((s) => s.supportEmail);
  // A server-rendered page: the year of its render until hydrated (the same text either side of midnight).
  const year = new Date(useHydrated() ? Date.now() : renderTime()).getFullYear();
  return (
    <Outer>
      <Columns>
        <div>
          <Heading>{siteName}</Heading>
          <p>
            A family-run business from the South West, offering prizes from big-ticket items to everyday
            essentials. Every month we donate to causes in the Southwest.
          </p>
        </div>
        <nav aria-label="Quick links">
          <Heading>Quick Links</Heading>
          <List>
            {QUICK_LINKS.map((l) => (
              <li key={l.href}>
                <Link href={l.href}>{l.label}</Link>
              </li>
            ))}
          </List>
        </nav>
        <nav aria-label="Categories">
          <Heading>Categories</Heading>
          <List>
            {PUBLIC_CATEGORIES.map((c) => (
              <li key={c}>
                <Link href={`/competitions?category=${c}`}>{categoryLabel(c)}</Link>
              </li>
            ))}
          </List>
        </nav>
        <div>
          <Heading>Contact Us</Heading>
          <address style={{ fontStyle: 'normal' }}>
            Devon, United Kingdom
            <br />
            <a href={`mailto:${supportEmail}`}>{supportEmail}</a>
          </address>
        </div>
      </Columns>
      <Bottom>
        <span>
          © {year} {siteName}. All rights reserved. <PromoterLine />
        </span>
        <Row>
          <Link href="/terms">Terms</Link>
          <Link href="/privacy">Privacy Policy</Link>
          <Link href="/cookies">Cookie Policy</Link>
          <Link href="/profile#complaints">Complaints</Link>
        </Row>
        <Row>
          <a href="https://www.facebook.com/" target="_blank" rel="noopener noreferrer" aria-label="Facebook">
            <Icon src="/images/social/facebook.svg" alt="" width={24} height={24} />
          </a>
          <a
            href="https://www.instagram.com/"
            target="_blank"
            rel="noopener noreferrer"
            aria-label="Instagram"
          >
            <Icon src="/images/social/instagram.svg" alt="" width={24} height={24} />
          </a>
          <Card src="/images/payments/visa.svg" alt="Visa" width={44} height={28} />
          <Card src="/images/payments/mastercard.svg" alt="Mastercard" width={44} height={28} />
        </Row>
      </Bottom>
    </Outer>
  );
}
