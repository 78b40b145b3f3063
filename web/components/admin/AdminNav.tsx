import styled from 'styled-components';
import { Link, useLocation } from 'wouter';

// The back office's own navigation, on every admin screen (issue 39 §10): one row of links that
// scrolls sideways inside itself on a phone, the current section marked.

export const ADMIN_NAV = [
  { href: '/admin', label: 'Dashboard' },
  { href: '/admin/competitions', label: 'Competitions' },
  { href: '/admin/orders', label: 'Orders' },
  { href: '/admin/users', label: 'Customers' },
  { href: '/admin/ticket-lookup', label: 'Ticket Lookup' },
  { href: '/admin/promos', label: 'Promos' },
  { href: '/admin/complaints', label: 'Complaints' },
  { href: '/admin/harm-report', label: 'Harm Report' },
  { href: '/admin/emails', label: 'E-mails' },
  { href: '/admin/campaigns', label: 'Campaigns' },
  { href: '/admin/site-settings', label: 'Site Settings' },
] as const;

const Bar = styled.nav`
  background: ${({ theme }) => theme.colors.brand};
  ul {
    display: flex;
    gap: ${({ theme }) => theme.space.xxs};
    margin: 0 auto;
    padding: 0 ${({ theme }) => theme.space.sm};
    max-width: 1280px;
    list-style: none;
    overflow-x: auto;
    scrollbar-width: thin;
  }
  a {
    display: flex;
    align-items: center;
    min-height: 44px;
    padding: 0 ${({ theme }) => theme.space.sm};
    white-space: nowrap;
    color: ${({ theme }) => theme.colors.textInverse};
    font-size: ${({ theme }) => theme.fontSizes.sm};
    font-weight: 600;
    text-decoration: none;
    border-bottom: 3px solid transparent;
  }
  a:hover { text-decoration: underline; }
  a[aria-current='page'] { border-bottom-color: ${({ theme }) => theme.colors.accent}; }
`;

/** The section a path belongs to: the longest nav entry it starts with (/admin/orders/7: Orders). */
export function currentSection(path: string): string {
  if (path === '/direct-site-settings' || path === '/direct-upload-test') return '/admin/site-settings';
  const matches = ADMIN_NAV.filter((n) => path === n.href || path.startsWith(`${n.href}/`));
  return matches.sort((a, b) => b.href.length - a.href.length)[0]?.href ?? '/admin';
}

export function AdminNav() {
  const [path] = useLocation();
  const current = currentSection(path);
  return (
    <Bar aria-label="Back office" data-testid="admin-nav">
      <ul>
        {ADMIN_NAV.map((n) => (
          <li key={n.href}>
            <Link href={n.href} aria-current={n.href === current ? 'page' : undefined}>
              {n.label}
            </Link>
          </li>
        ))}
      </ul>
    </Bar>
  );
}
