import { useEffect } from 'react';
import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { playRefusal } from '../../../contract/protection';
import { useRoute } from '../../api/call';
import { useAuth } from '../../stores/auth';

// Protection shown up front (docs/product.md#player-protection): a customer on a break, or at
// their spending limit, sees why and until when before Buy Now, the number selector and checkout,
// whose buttons are disabled, instead of being refused after the skill question.

const Banner = styled.div`
  border: 1px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.warningBg};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.sm};
  strong { display: block; }
  p { margin: 0; }
`;

export interface PlayBlock {
  title: string;
  message: string;
}

/**
 * Why the signed-in customer cannot spend `pricePence` now, from GET /api/account/play-state;
 * null for a visitor, while loading, or when nothing stops them. `reloadKey`: read it again
 * whenever it changes (a refusal at checkout).
 */
export function usePlayBlock(pricePence: number, reloadKey: unknown = null): PlayBlock | null {
  const user = useAuth((s) => s.user);
  const state = useRoute<typeof ACCOUNT_ROUTES.playState>(
    { method: 'GET', path: '/api/account/play-state' },
    user ? {} : null,
  );
  const { reload } = state;
  useEffect(() => {
    if (reloadKey !== null) reload();
  }, [reloadKey, reload]);
  const message = user ? playRefusal(state.data, pricePence) : null;
  if (!message) return null;
  return { title: state.data?.onBreakUntil ? 'Taking a break' : 'Monthly spending limit', message };
}

/** The one banner that says why the buttons below cannot be used, and until when. */
export function PlayBlockBanner({ block }: { block: PlayBlock }) {
  return (
    <Banner role="status" data-testid="play-block">
      <strong>{block.title}</strong>
      <p>{block.message}</p>
    </Banner>
  );
}
