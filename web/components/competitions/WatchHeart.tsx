import { type MouseEvent, useEffect } from 'react';
import styled from 'styled-components';
import { useAuth } from '../../stores/auth';
import { useWatchlist } from '../../stores/watchlist';

// The heart on a competition's card and page: a signed-in customer watches the competition
// (docs/product.md#watching-a-competition) and hears when it is ending soon, with marketing consent.

const Heart = styled.button<{ $on: boolean; $floating: boolean }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 6px;
  min-width: 44px;
  min-height: 44px;
  padding: 0 ${({ $floating }) => ($floating ? '0' : '12px')};
  border-radius: ${({ theme }) => theme.radii.pill};
  border: 1px solid ${({ theme }) => theme.colors.border};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ $on, theme }) => ($on ? theme.colors.danger : theme.colors.textMuted)};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  ${({ $floating }) => ($floating ? 'position: absolute; top: 8px; right: 8px; z-index: 1;' : '')}
  span[aria-hidden] { font-size: 1.3em; line-height: 1; }
`;

export function WatchHeart({
  competitionId,
  title,
  floating = false,
}: {
  competitionId: number;
  title: string;
  /** Over a card's picture (icon only) rather than in a row (icon and words). */
  floating?: boolean;
}) {
  const user = useAuth((s) => s.user);
  const load = useWatchlist((s) => s.load);
  const toggle = useWatchlist((s) => s.toggle);
  const watching = useWatchlist((s) => s.competitions.some((c) => c.competitionId === competitionId));
  useEffect(() => {
    if (user) void load(user.id);
  }, [user, load]);
  if (!user) return null;
  const onClick = (e: MouseEvent) => {
    // A card is a link: the heart must not open the competition.
    e.preventDefault();
    e.stopPropagation();
    void toggle(competitionId);
  };
  return (
    <Heart
      type="button"
      $on={watching}
      $floating={floating}
      aria-pressed={watching}
      aria-label={floating ? `${watching ? 'Stop watching' : 'Watch'} ${title}` : undefined}
      data-testid="watch-heart"
      onClick={onClick}
    >
      <span aria-hidden="true">{watching ? '♥' : '♡'}</span>
      {!floating && (watching ? 'Watching' : 'Watch')}
    </Heart>
  );
}
