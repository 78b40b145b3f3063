import { describe, expect, it } from 'vitest';
import { theme } from '../../web/theme/theme';

// WCAG 2.x contrast (1.4.3, AA: 4.5:1 for body text) of the theme's text/background pairs that the
// components use. axe-core checks contrast in the browser tests, but leaves it undecided where it
// cannot see the background (text in a modal <dialog>, a dropdown over the page): these pairs
// cover those places, so a theme change that makes a dialog or the promo banner unreadable fails.

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

type Colour = keyof typeof theme.colors;
// [text, background, where]
const PAIRS: Array<[Colour, Colour, string]> = [
  ['text', 'surface', 'body text, dialogs, cards'],
  ['text', 'background', 'page body'],
  ['textMuted', 'surface', 'dialog and card notes, hints'],
  ['textMuted', 'background', 'page notes'],
  ['textMuted', 'muted', 'table headers, placeholders'],
  ['brand', 'surface', 'headings, dialog titles, ghost buttons'],
  ['brand', 'muted', 'ghost button hovered'],
  ['accentText', 'accent', 'promo banner, primary buttons'],
  ['accentText', 'accentDark', 'primary button hovered'],
  ['textInverse', 'brand', "header, footer, the promo banner's Sign Up, secondary buttons"],
  ['textInverse', 'brandLight', 'secondary button hovered'],
  ['textInverse', 'danger', 'danger buttons, error toasts'],
  ['success', 'surface', 'available, success text'],
  ['success', 'successBg', 'success badges and notes'],
  ['danger', 'surface', 'error text under fields'],
  ['danger', 'dangerBg', 'error boxes and badges'],
  ['warning', 'warningBg', 'warning notes'],
  ['info', 'infoBg', 'information notes'],
];

describe('theme colour contrast', () => {
  it('matches the published WCAG figures (black on white 21:1, #767676 on white 4.54:1)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it.each(PAIRS)('%s on %s is at least 4.5:1 (%s)', (text, background) => {
    expect(contrastRatio(theme.colors[text], theme.colors[background])).toBeGreaterThanOrEqual(4.5);
  });
});
