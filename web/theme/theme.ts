// One theme for the whole client. Components read tokens through styled-components' ThemeProvider
// (props.theme) or import `theme` directly for media queries.
export const theme = {
  colors: {
    brand: '#0b2545', // deep navy: header, footer, headings
    brandDark: '#061a33',
    brandLight: '#13315c',
    accent: '#f4b400', // gold: primary calls to action
    accentDark: '#c99400',
    accentText: '#1b1400',
    success: '#15803d', // auto-win, available, success toasts
    successBg: '#dcfce7',
    danger: '#b91c1c', // live draw, errors, sold
    dangerBg: '#fee2e2',
    warning: '#b45309',
    warningBg: '#fef3c7',
    info: '#1d4ed8',
    infoBg: '#dbeafe',
    text: '#111827',
    textMuted: '#4b5563',
    textInverse: '#ffffff',
    border: '#e5e7eb',
    surface: '#ffffff',
    background: '#f5f7fb',
    muted: '#f1f5f9',
  },
  fonts: {
    heading: "'Poppins', system-ui, -apple-system, 'Segoe UI', sans-serif",
    body: "'Inter', system-ui, -apple-system, 'Segoe UI', sans-serif",
    mono: "ui-monospace, 'SFMono-Regular', Menlo, monospace",
  },
  // Type scale in rem (1rem = 16px).
  fontSizes: {
    xs: '0.75rem',
    sm: '0.875rem',
    md: '1rem',
    lg: '1.125rem',
    xl: '1.375rem',
    xxl: '1.75rem',
    display: '2.5rem',
  },
  space: { xxs: '0.25rem', xs: '0.5rem', sm: '0.75rem', md: '1rem', lg: '1.5rem', xl: '2rem', xxl: '3rem' },
  radii: { sm: '4px', md: '8px', lg: '14px', pill: '999px' },
  shadows: {
    card: '0 1px 3px rgba(15, 23, 42, 0.08), 0 4px 12px rgba(15, 23, 42, 0.06)',
    raised: '0 10px 30px rgba(15, 23, 42, 0.18)',
  },
  // Min-width breakpoints; the layout is designed from 360px up.
  breakpoints: { sm: 480, md: 768, lg: 1024, xl: 1280 },
  maxWidth: '1200px',
} as const;

export type Theme = typeof theme;

/** `${media.md} { ... }` inside a styled template applies from the md breakpoint up. */
export const media = {
  sm: `@media (min-width: ${theme.breakpoints.sm}px)`,
  md: `@media (min-width: ${theme.breakpoints.md}px)`,
  lg: `@media (min-width: ${theme.breakpoints.lg}px)`,
  xl: `@media (min-width: ${theme.breakpoints.xl}px)`,
} as const;
