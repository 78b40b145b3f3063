import type { MouseEvent } from 'react';
import styled from 'styled-components';

const Link = styled.a`
  position: absolute;
  left: ${({ theme }) => theme.space.sm};
  top: ${({ theme }) => theme.space.sm};
  z-index: 200;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.accentText};
  font-weight: 700;
  /* Off screen until a keyboard user tabs to it: the first stop on every page. */
  transform: translateY(-200%);
  &:focus { transform: none; }
`;

/** 'Skip to main content': moves focus past the header and its menus to `<main id={target}>`. */
export function SkipLink({ target }: { target: string }) {
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById(target);
    if (!main) return;
    // Focus without changing the URL (a '#main' hash would stay on every page the router shows).
    e.preventDefault();
    main.focus();
  };
  return (
    <Link href={`#${target}`} onClick={skip}>
      Skip to main content
    </Link>
  );
}
