import styled, { css } from 'styled-components';
import type { NumberState } from '../../live/competitionStore';
import type { Theme } from '../../theme/theme';

// How each ticket number looks and reads, on the page's grid and in the picker alike: a colour,
// and always something more than colour (a pattern, a border style or a sign, and words).

/** A cell's look: its live state, or 'selected' in the picker. */
export type CellLook = NumberState | 'selected';

type Colour = keyof Theme['colors'];

const LOOKS: Record<
  CellLook,
  {
    border: Colour;
    background: Colour;
    color: Colour;
    sign: string;
    label: string;
    extra?: ReturnType<typeof css>;
  }
> = {
  available: { border: 'success', background: 'successBg', color: 'success', sign: '', label: 'Available' },
  selected: { border: 'brand', background: 'brand', color: 'textInverse', sign: '✓', label: 'Selected' },
  mine: {
    border: 'info',
    background: 'infoBg',
    color: 'info',
    sign: '●',
    label: 'In your cart',
    extra: css`border-style: dashed; border-width: 2px;`,
  },
  reserved: {
    border: 'warning',
    background: 'warningBg',
    color: 'warning',
    sign: '◔',
    label: 'Reserved by someone else',
    // Diagonal stripes: a held number reads as held without its colour.
    extra: css`
      background-image: repeating-linear-gradient(135deg, transparent 0 4px, rgba(180, 83, 9, 0.18) 4px 7px);
    `,
  },
  sold: {
    border: 'danger',
    background: 'danger',
    color: 'textInverse',
    sign: '✕',
    label: 'Purchased',
    extra: css`text-decoration: line-through;`,
  },
  owned: {
    border: 'brand',
    background: 'accent',
    color: 'accentText',
    sign: '★',
    label: 'Yours',
    extra: css`border-width: 2px; box-shadow: inset 0 0 0 1px #fff;`,
  },
};

/** The words for a number's state: a cell's title and its accessible name. */
export const STATE_LABEL: Record<NumberState, string> = {
  available: 'Available',
  reserved: 'This number is temporarily reserved by another user',
  mine: 'Reserved in your cart',
  sold: 'Purchased',
  owned: 'Yours: you bought this number',
};

/** The values tests and styles key on; 'sold' is called 'purchased' as the grid always has. */
export const dataState = (look: CellLook) =>
  look === 'sold' ? 'purchased' : look === 'owned' ? 'yours' : look;

/** Colour, pattern and border of one look, for a styled cell with a `$look` prop. */
export const cellLookCss = css<{ $look: CellLook }>`
  position: relative;
  border: 1px solid ${({ $look, theme }) => theme.colors[LOOKS[$look].border]};
  background-color: ${({ $look, theme }) => theme.colors[LOOKS[$look].background]};
  color: ${({ $look, theme }) => theme.colors[LOOKS[$look].color]};
  ${({ $look }) => LOOKS[$look].extra}
`;

const Sign = styled.span`
  position: absolute;
  top: 0;
  right: 2px;
  font-size: 9px;
  line-height: 1.2;
  text-decoration: none;
`;

/**
 * The inside of a cell: the number, its sign (hidden from screen readers) and its state in words
 * for them, so that the accessible name is 'Ticket 7: Yours' and not only a colour.
 */
export function CellContent({ n, look, label }: { n: number; look: CellLook; label?: string }) {
  const sign = LOOKS[look].sign;
  return (
    <>
      <span aria-hidden="true">{n}</span>
      {sign && (
        <Sign aria-hidden="true" data-sign>
          {sign}
        </Sign>
      )}
      <span className="visually-hidden">
        Ticket {n}: {label ?? LOOKS[look].label}
      </span>
    </>
  );
}

const Swatch = styled.span<{ $look: CellLook }>`
  ${cellLookCss}
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 26px;
  height: 20px;
  border-radius: 3px;
  font-size: 10px;
  font-weight: 700;
`;

const Key = styled.ul<{ $compact: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: 2px ${({ $compact, theme }) => ($compact ? theme.space.sm : theme.space.md)};
  margin: 0;
  padding: 0;
  list-style: none;
  font-size: ${({ $compact, theme }) => ($compact ? theme.fontSizes.xs : theme.fontSizes.sm)};
  li { display: inline-flex; align-items: center; gap: 4px; }
`;

/** The colour key: each look as a small cell with its sign and pattern, and its name. */
export function NumberKey({
  looks,
  compact = false,
  className,
}: {
  looks: CellLook[];
  /** Smaller, for the picker, whose 'Confirm Selection' must stay on a phone's screen. */
  compact?: boolean;
  className?: string;
}) {
  return (
    <Key
      aria-label="Key to the number colours"
      data-testid="number-key"
      $compact={compact}
      className={className}
    >
      {looks.map((look) => (
        <li key={look} data-legend={dataState(look)}>
          <Swatch $look={look} aria-hidden="true">
            {LOOKS[look].sign}
          </Swatch>
          {LOOKS[look].label}
        </li>
      ))}
    </Key>
  );
}
