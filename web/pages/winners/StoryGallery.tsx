import styled from 'styled-components';
import { Link } from 'wouter';
import type { Winner } from '../../../contract/draw';

const Gallery = styled.section`
  margin-bottom: ${({ theme }) => theme.space.xl};
  h2 { color: ${({ theme }) => theme.colors.brand}; }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: ${({ theme }) => theme.space.lg};
    grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  }
`;

const Story = styled.figure`
  margin: 0;
  display: grid;
  align-content: start;
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  overflow: hidden;
  img { width: 100%; height: auto; aspect-ratio: 4 / 3; object-fit: cover; background: ${({ theme }) => theme.colors.muted}; }
  blockquote { margin: 0; padding: ${({ theme }) => theme.space.md} ${({ theme }) => theme.space.md} 0; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  figcaption { padding: ${({ theme }) => theme.space.md}; color: ${({ theme }) => theme.colors.textMuted}; }
  figcaption strong { color: ${({ theme }) => theme.colors.text}; }
  a { color: ${({ theme }) => theme.colors.info}; }
`;

/**
 * /winners' gallery (docs/product.md#public-names-and-winner-stories): each winner's photo and
 * quote, published with their agreement, named as they chose to appear.
 */
export function StoryGallery({ winners }: { winners: Winner[] }) {
  const stories = winners.flatMap((w) => (w.stories ?? []).map((s) => ({ ...s, winner: w })));
  if (!stories.length) return null;
  return (
    <Gallery aria-labelledby="stories-title">
      <h2 id="stories-title">Winner stories</h2>
      <ul>
        {stories.map(({ winner, ...s }) => (
          <li key={`${winner.competitionId}-${s.position}`}>
            <Story data-testid="winner-story">
              {s.photo && (
                <img src={s.photo} alt={`${s.winnerName}, winner of ${s.prizeTitle}`} loading="lazy" />
              )}
              {s.quote && (
                <blockquote>
                  <p>“{s.quote}”</p>
                </blockquote>
              )}
              <figcaption>
                <strong>{s.winnerName}</strong>, winner of <Link href={winner.url}>{s.prizeTitle}</Link>
              </figcaption>
            </Story>
          </li>
        ))}
      </ul>
    </Gallery>
  );
}
