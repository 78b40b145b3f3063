import styled from 'styled-components';
import { formatPence } from '../../../contract/money';
import { type MainPrize, ordinal } from '../../../contract/prizes';
import { media } from '../../theme/theme';
import { ResponsiveImage } from '../ui/ResponsiveImage';

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.xxl};
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
`;

const List = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  ${media.sm} { grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); }
  /* A narrow column (the admin's): the phone's rows at every width. */
  &[data-compact='true'] { grid-template-columns: 1fr; }
  &[data-compact='true'] > li { grid-template-columns: 96px 1fr; }
`;

// A phone: picture beside the words; wider: a card, picture on top.
const Item = styled.li`
  display: grid;
  grid-template-columns: 96px 1fr;
  gap: ${({ theme }) => theme.space.sm};
  align-items: start;
  padding: ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  ${media.sm} { grid-template-columns: 1fr; }
  img {
    width: 100%;
    height: auto;
    aspect-ratio: 4 / 3;
    object-fit: cover;
    border-radius: ${({ theme }) => theme.radii.sm};
    background: ${({ theme }) => theme.colors.muted};
  }
  .place { font-size: ${({ theme }) => theme.fontSizes.xs}; font-weight: 700; text-transform: uppercase; color: ${({ theme }) => theme.colors.textMuted}; }
  h3, .name { margin: 0; font-size: ${({ theme }) => theme.fontSizes.md}; font-weight: 700; }
  .description { font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; }
  dl { margin: 4px 0 0; display: grid; grid-template-columns: auto 1fr; gap: 0 ${({ theme }) => theme.space.xs}; font-size: ${({ theme }) => theme.fontSizes.sm}; }
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 700; }
`;

/** '3 winners: one for each prize, drawn in this order.' or the single prize's line. */
export const winnersLine = (count: number) =>
  count > 1 ? `${count} winners: one for each prize, drawn in this order.` : 'One winner takes the prize.';

/**
 * Every main prize in draw order with its value, cash alternative and picture (docs/product.md
 * "Prizes on show"): on the competition page, rendered by the server too, and on the admin's.
 */
export function PrizeList({
  prizes,
  pageImage,
  compact = false,
  className,
}: {
  prizes: readonly MainPrize[];
  /** The page's own picture: a prize showing the same one is decorative (not read out twice). */
  pageImage?: string | null;
  /** Rows with a small picture at every width, for a narrow column. */
  compact?: boolean;
  className?: string;
}) {
  if (prizes.length === 0) return null;
  const several = prizes.length > 1;
  return (
    <Section aria-labelledby="prizes-title" data-testid="prize-list" className={className}>
      <h2 id="prizes-title">{several ? `${prizes.length} prizes` : 'The prize'}</h2>
      <p>{winnersLine(prizes.length)}</p>
      <List data-compact={compact}>
        {prizes.map((p, i) => {
          const place = `${ordinal(i + 1)} prize`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the position is the prize's identity (1st, 2nd …)
            <Item key={i} data-testid="prize">
              <ResponsiveImage
                src={p.image ?? '/images/placeholder.svg'}
                alt={p.image && p.image !== pageImage ? `${place}: ${p.title}` : ''}
                sizes="(min-width: 480px) 280px, 96px"
                width={400}
                height={300}
              />
              <div>
                <span className="place">{place}</span>
                {/* One prize is the page's own title: not a second heading of the same name. */}
                {several ? <h3>{p.title}</h3> : <p className="name">{p.title}</p>}
                {p.description && <p className="description">{p.description}</p>}
                {(p.cashValuePence !== null || p.cashAlternativePence !== null) && (
                  <dl>
                    {p.cashValuePence !== null && (
                      <>
                        <dt>Value</dt>
                        <dd data-testid="prize-value">{formatPence(p.cashValuePence)}</dd>
                      </>
                    )}
                    {p.cashAlternativePence !== null && (
                      <>
                        <dt>Cash alternative</dt>
                        <dd data-testid="prize-cash-alternative">{formatPence(p.cashAlternativePence)}</dd>
                      </>
                    )}
                  </dl>
                )}
              </div>
            </Item>
          );
        })}
      </List>
    </Section>
  );
}
