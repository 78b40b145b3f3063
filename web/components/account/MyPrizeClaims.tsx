import styled from 'styled-components';
import { Link } from 'wouter';
import type { CLAIM_ROUTES } from '../../../contract/apiClaims';
import type { ClaimView } from '../../../contract/claims';
import { formatLongDate } from '../../../contract/londonTime';
import { useRoute } from '../../api/call';
import { ButtonLink } from '../ui/Button';
import { Card } from '../ui/Page';

const Prizes = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.xl}; color: ${({ theme }) => theme.colors.brand}; }
  ul { list-style: none; margin: 0; padding: 0; display: grid; gap: ${({ theme }) => theme.space.sm}; }
  li { display: flex; flex-wrap: wrap; gap: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md}; align-items: center; justify-content: space-between; }
  small { display: block; color: ${({ theme }) => theme.colors.textMuted}; }
`;

const stateOf = (c: ClaimView) =>
  c.status === 'claimed'
    ? `Claimed on ${formatLongDate(c.claimedAt!)}`
    : c.status === 'expired'
      ? `Claim window closed on ${formatLongDate(c.deadline)}`
      : `Claim by ${formatLongDate(c.deadline)}`;

/** My Entries' 'Your prizes': each prize won that is claimed, with its state and its claim page. */
export function MyPrizeClaims() {
  const claims = useRoute<typeof CLAIM_ROUTES.myClaims>({ method: 'GET', path: '/api/claims' }, {});
  if (!claims.data?.length) return null;
  return (
    <Prizes aria-labelledby="my-prizes-title" data-testid="my-prizes">
      <h2 id="my-prizes-title">Your prizes</h2>
      <ul>
        {claims.data.map((c) => (
          <li key={c.id} data-testid="my-prize">
            <span>
              <strong>{c.prize}</strong> in {c.competitionTitle}
              <small>{stateOf(c)}</small>
            </span>
            <Link href={`/claims/${c.id}`} asChild>
              <ButtonLink $variant={c.status === 'awaiting' ? 'primary' : 'ghost'}>
                {c.status === 'awaiting' ? 'Claim your prize' : 'View claim'}
              </ButtonLink>
            </Link>
          </li>
        ))}
      </ul>
    </Prizes>
  );
}
