import styled, { css } from 'styled-components';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variants = {
  primary: css`
    background: ${({ theme }) => theme.colors.accent};
    color: ${({ theme }) => theme.colors.accentText};
    &:hover:not(:disabled) { background: ${({ theme }) => theme.colors.accentDark}; }
  `,
  secondary: css`
    background: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.textInverse};
    &:hover:not(:disabled) { background: ${({ theme }) => theme.colors.brandLight}; }
  `,
  ghost: css`
    background: transparent;
    color: ${({ theme }) => theme.colors.brand};
    border-color: ${({ theme }) => theme.colors.border};
    &:hover:not(:disabled) { background: ${({ theme }) => theme.colors.muted}; }
  `,
  danger: css`
    background: ${({ theme }) => theme.colors.danger};
    color: ${({ theme }) => theme.colors.textInverse};
  `,
};

const base = css<{ $variant?: Variant }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.xs};
  min-height: 44px;
  padding: ${({ theme }) => `0 ${theme.space.lg}`};
  border: 1px solid transparent;
  border-radius: ${({ theme }) => theme.radii.md};
  font-family: ${({ theme }) => theme.fonts.heading};
  font-weight: 600;
  font-size: ${({ theme }) => theme.fontSizes.md};
  text-decoration: none;
  cursor: pointer;
  transition: background 0.15s ease;
  &:disabled { opacity: 0.55; cursor: not-allowed; }
  &:focus-visible { outline: 3px solid ${({ theme }) => theme.colors.info}; outline-offset: 2px; }
  ${({ $variant = 'primary' }) => variants[$variant]}
`;

/** A real <button>; pass $variant for the look. */
export const Button = styled.button<{ $variant?: Variant }>`
  ${base}
`;

/** An anchor styled as a button (wrap with wouter's <Link asChild> for client-side routes). */
export const ButtonLink = styled.a<{ $variant?: Variant }>`
  ${base}
`;
