import styled, { keyframes } from 'styled-components';
import { Link } from 'wouter';
import type { PublicCompetition } from '../../../contract/competitions';
import { formatUkDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { serverNow } from '../../live/clock';
import { renderTime, useHydrated } from '../../ssr/seed';
import { media, theme } from '../../theme/theme';
import { ResponsiveImage } from '../ui/ResponsiveImage';
import { AutoWinProgress } from './AutoWinProgress';
import { Countdown } from './Countdown';
import { type CardBadgeKind, cardBadges } from './cardBadges';
import { ProgressBar } from './ProgressBar';
import { WatchHeart } from './WatchHeart';

export const CardGrid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  grid-template-columns: 1fr;
  ${media.sm} { grid-template-columns: repeat(2, 1fr); }
  ${media.lg} { grid-template-columns: repeat(3, 1fr); }
  ${media.xl} { grid-template-columns: repeat(4, 1fr); }
`;

/** The card and its heart (a button may not sit inside the card's link). */
const CardWrap = styled.div`
  position: relative;
  display: flex;
  flex-direction: column;
  > a { flex: 1; }
`;

const Card = styled(Link)`
  display: flex;
  flex-direction: column;
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  overflow: hidden;
  text-decoration: none;
  color: inherit;
  transition: transform 0.15s ease, box-shadow 0.15s ease;
  &:hover { transform: translateY(-2px); box-shadow: ${({ theme }) => theme.shadows.raised}; }
`;

const Image = styled(ResponsiveImage)`
  width: 100%;
  height: auto;
  aspect-ratio: 4 / 3;
  object-fit: cover;
  background: ${({ theme }) => theme.colors.muted};
`;

const Body = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.md};
  flex: 1;
`;

const Title = styled.h3`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.brand};
`;

const Description = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  display: -webkit-box;
  -webkit-line-clamp: 2;
  -webkit-box-orient: vertical;
  overflow: hidden;
`;

const Price = styled.p`
  margin: 0;
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: 700;
  color: ${({ theme }) => theme.colors.text};
  small { font-size: ${({ theme }) => theme.fontSizes.sm}; font-weight: 500; color: ${({ theme }) => theme.colors.textMuted}; }
`;

const Badge = styled.span<{ $auto: boolean }>`
  align-self: flex-start;
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  letter-spacing: 0.04em;
  color: ${({ theme }) => theme.colors.textInverse};
  background: ${({ $auto, theme }) => ($auto ? theme.colors.success : theme.colors.danger)};
`;

const Badges = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
`;

const Fact = styled.span<{ $kind: CardBadgeKind }>`
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  border: 1px solid currentColor;
  color: ${({ $kind, theme }) =>
    $kind === 'ends' ? theme.colors.danger : $kind === 'instant' ? theme.colors.success : theme.colors.brand};
`;

const DrawIn = styled.div`
  display: grid;
  gap: 4px;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
  small { font-weight: 400; color: ${({ theme }) => theme.colors.textMuted}; }
`;

/** A card's width at each breakpoint: CardGrid's 1, 2, 3 then 4 columns of a 1200 px page. */
const CARD_SIZES = `(min-width: ${theme.breakpoints.xl}px) 300px, (min-width: ${theme.breakpoints.lg}px) 33vw, (min-width: ${theme.breakpoints.sm}px) 50vw, 100vw`;

export function CompetitionCard({
  competition: c,
  headingLevel = 'h3',
}: {
  competition: PublicCompetition;
  /** One below the heading the list sits under: h2 straight under a page's h1 (no skipped level). */
  headingLevel?: 'h2' | 'h3';
}) {
  // As at the server's render until hydrated, so the markup matches; then the server clock.
  const now = useHydrated() ? serverNow() : renderTime();
  return (
    <CardWrap>
      <Card href={`/competition/${c.id}`} data-testid="competition-card">
        <Image
          src={c.image ?? '/images/placeholder.svg'}
          alt={c.title}
          sizes={CARD_SIZES}
          width={400}
          height={300}
        />
        <Body>
          <Badges data-testid="card-badges">
            <Badge $auto={c.autoWin}>{c.autoWin ? 'AUTO WIN' : 'LIVE DRAW'}</Badge>
            {cardBadges(c, now).map((b) => (
              <Fact key={b.kind} $kind={b.kind} data-testid={`card-badge-${b.kind}`}>
                {b.text}
              </Fact>
            ))}
          </Badges>
          <Title as={headingLevel}>{c.title}</Title>
          <Description>{c.description}</Description>
          <Price>
            {formatPounds(c.ticketPrice)} <small>per ticket</small>
          </Price>
          <ProgressBar ticketsSold={c.ticketsSold} totalTickets={c.totalTickets} />
          {c.autoWin ? (
            <AutoWinProgress ticketsSold={c.ticketsSold} totalTickets={c.totalTickets} endDate={c.endDate} />
          ) : (
            <DrawIn>
              Draw in:
              <Countdown endDate={c.endDate} />
              <small data-testid="draw-time">Draw {formatUkDateTime(c.endDate)}</small>
            </DrawIn>
          )}
        </Body>
      </Card>
      <WatchHeart competitionId={c.id} title={c.title} floating />
    </CardWrap>
  );
}

const shimmer = keyframes`
  0% { background-position: -200px 0; }
  100% { background-position: calc(200px + 100%) 0; }
`;

const Placeholder = styled.div`
  border-radius: ${({ theme }) => theme.radii.lg};
  min-height: 380px;
  background: linear-gradient(90deg, #e9eef5 0, #f6f8fb 40px, #e9eef5 80px) no-repeat;
  background-size: 200px 100%;
  background-color: #e9eef5;
  animation: ${shimmer} 1.2s ease-in-out infinite;
  display: flex;
  align-items: center;
  justify-content: center;
  color: ${({ theme }) => theme.colors.textMuted};
  text-align: center;
  padding: ${({ theme }) => theme.space.md};
`;

/** Loading (8) or error (4, 'Competition data unavailable') placeholders, as the spec counts them. */
export function PlaceholderCards({ count, text }: { count: number; text?: string }) {
  return (
    <CardGrid aria-busy={!text}>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Placeholder key={i} data-testid="competition-placeholder">
          {text}
        </Placeholder>
      ))}
    </CardGrid>
  );
}
