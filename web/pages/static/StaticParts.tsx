import { type ReactNode, useId } from 'react';
import styled, { css } from 'styled-components';
import { Link } from 'wouter';
import { ButtonLink } from '../../components/ui/Button';
import { Prose } from '../../components/ui/Page';
import { media } from '../../theme/theme';

/** Visible keyboard focus for links and controls on the static pages. */
export const focusRing = css`
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.info};
    outline-offset: 2px;
  }
`;

/** Colour, underline offset and focus ring for inline text links inside a block. */
export const inlineLinks = css`
  a {
    color: ${({ theme }) => theme.colors.info};
    text-underline-offset: 2px;
    overflow-wrap: anywhere;
    ${focusRing}
  }
`;

/** Hidden on screen, still read by screen readers. */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  clip-path: inset(50%);
  white-space: nowrap;
  border: 0;
`;

/** Prose with list indentation and focus styles for links, used by the long-form pages. */
export const StaticProse = styled(Prose)`
  h2,
  section[id] {
    scroll-margin-top: 7rem;
  }
  ul,
  ol {
    padding-left: 1.25rem;
  }
  li + li {
    margin-top: ${({ theme }) => theme.space.xxs};
  }
  ${inlineLinks}
`;

/** A heading for a block that sits outside Prose. */
export const SectionTitle = styled.h2`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xl};
  color: ${({ theme }) => theme.colors.brand};
  margin: ${({ theme }) => `${theme.space.xl} 0 ${theme.space.md}`};
`;

/** A heading at the top of a Card (help and call-to-action boxes). */
export const CardHeading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space.xs};
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xl};
  color: ${({ theme }) => theme.colors.brand};
`;

/** Row of call-to-action buttons; stacks full width on narrow screens. */
export const CtaRow = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.sm};
  margin-top: ${({ theme }) => theme.space.lg};
  ${media.sm} {
    flex-direction: row;
    flex-wrap: wrap;
  }
`;

type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

interface RouteButtonProps {
  href: string;
  variant?: ButtonVariant;
  children: ReactNode;
}

/** A client-side route link that looks like a button (wouter Link rendering our ButtonLink). */
export function RouteButton({ href, variant = 'primary', children }: RouteButtonProps) {
  return (
    <Link href={href} asChild>
      <ButtonLink $variant={variant}>{children}</ButtonLink>
    </Link>
  );
}

export interface RelatedLink {
  href: string;
  label: string;
}

interface RelatedLinksProps {
  links: RelatedLink[];
  heading?: string;
}

/** "Related pages" navigation shown at the foot of the static pages. */
export function RelatedLinks({ links, heading = 'Related pages' }: RelatedLinksProps) {
  const headingId = useId();
  return (
    <RelatedNav aria-labelledby={headingId}>
      <RelatedHeading id={headingId}>{heading}</RelatedHeading>
      <RelatedList>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href}>{link.label}</Link>
          </li>
        ))}
      </RelatedList>
    </RelatedNav>
  );
}

const RelatedNav = styled.nav`
  margin-top: ${({ theme }) => theme.space.xxl};
  padding-top: ${({ theme }) => theme.space.lg};
  border-top: 1px solid ${({ theme }) => theme.colors.border};
`;

const RelatedHeading = styled.h2`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.md};
  color: ${({ theme }) => theme.colors.brand};
  margin: 0 0 ${({ theme }) => theme.space.sm};
`;

const RelatedList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  margin: 0;
  padding: 0;
  list-style: none;
  a {
    display: inline-flex;
    align-items: center;
    min-height: 44px;
    padding: ${({ theme }) => `0 ${theme.space.md}`};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.pill};
    background: ${({ theme }) => theme.colors.surface};
    color: ${({ theme }) => theme.colors.brand};
    font-weight: 600;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    text-decoration: none;
    &:hover {
      background: ${({ theme }) => theme.colors.muted};
    }
    ${focusRing}
  }
`;

/** A mailto link for the support address. */
export function SupportEmailLink({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}
