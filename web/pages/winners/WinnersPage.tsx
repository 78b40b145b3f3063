import { Fragment, useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import type { Winner } from '../../../contract/draw';
import { formatLongDate } from '../../../contract/londonTime';
import { ordinal } from '../../../contract/prizes';
import { useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { CardGrid } from '../../components/competitions/CompetitionCard';
import { VERIFY_ANCHOR } from '../../components/draws/VerifyDrawPanel';
import { ButtonLink } from '../../components/ui/Button';
import { CenteredMessage, Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';
import { StoryGallery } from './StoryGallery';

const Card = styled.article`
  display: flex;
  flex-direction: column;
  background: ${({ theme }) => theme.colors.surface};
  border-radius: ${({ theme }) => theme.radii.lg};
  box-shadow: ${({ theme }) => theme.shadows.card};
  overflow: hidden;
`;

const Image = styled.img`
  width: 100%;
  height: auto;
  aspect-ratio: 4 / 3;
  object-fit: cover;
  background: ${({ theme }) => theme.colors.muted};
`;

const Body = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => theme.space.md};
  flex: 1;
  align-content: start;
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; color: ${({ theme }) => theme.colors.brand}; }
  p { margin: 0; }
  a { color: ${({ theme }) => theme.colors.info}; font-weight: 600; }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr);
  gap: 2px ${({ theme }) => theme.space.sm};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; }
`;

function WinnerCard({ winner }: { winner: Winner }) {
  return (
    <Card data-testid="winner-card" aria-labelledby={`winner-${winner.competitionId}`}>
      <Image src={winner.image ?? '/images/placeholder.svg'} alt="" loading="lazy" width={400} height={300} />
      <Body>
        <h2 id={`winner-${winner.competitionId}`}>
          <Link href={winner.url}>{winner.title}</Link>
        </h2>
        <Facts>
          {(winner.prizes?.length ?? 1) > 1 ? (
            winner.prizes?.map((p) => (
              <Fragment key={p.position}>
                <dt>{ordinal(p.position)} prize</dt>
                <dd data-testid="winner-prize">
                  {p.title}: {p.winnerName}, #{p.winningNumber}
                </dd>
              </Fragment>
            ))
          ) : (
            <>
              <dt>Winner</dt>
              <dd>{winner.winnerName}</dd>
              <dt>Ticket</dt>
              <dd>#{winner.winningNumber}</dd>
            </>
          )}
          <dt>Drawn</dt>
          <dd>{formatLongDate(winner.drawnAt)}</dd>
        </Facts>
        <p>
          <Link href={`${winner.url}#${VERIFY_ANCHOR}`} aria-label={`Verify the draw of ${winner.title}`}>
            Verify this draw
          </Link>
        </p>
      </Body>
    </Card>
  );
}

/** /winners (the footer's link): every drawn competition, newest first, each verifiable. */
export default function WinnersPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Winners | ${siteName}`;
  }, [siteName]);
  const winners = useRoute<typeof DRAW_ROUTES.winners>(
    { method: 'GET', path: '/api/winners' },
    {},
    { retries: 2 },
  );

  return (
    <PageContainer>
      <PageTitle>Winners</PageTitle>
      <Lead>
        Every winner we have drawn, with the winning ticket. Each draw can be checked: open it and press
        'Verify this draw'.
      </Lead>
      {winners.error && !winners.data ? (
        <CenteredMessage role="alert">
          <p>{messageOf(winners.error, "We couldn't load the winners.")}</p>
        </CenteredMessage>
      ) : !winners.data ? (
        <Spinner label="Loading winners" />
      ) : winners.data.length === 0 ? (
        <CenteredMessage data-testid="winners-empty">
          <h2>No winners yet</h2>
          <p>Our first draws are coming soon. Yours could be the first name here.</p>
          <Link href="/competitions" asChild>
            <ButtonLink>View Competitions</ButtonLink>
          </Link>
        </CenteredMessage>
      ) : (
        <>
          <StoryGallery winners={winners.data} />
          <CardGrid>
            {winners.data.map((w) => (
              <WinnerCard key={w.competitionId} winner={w} />
            ))}
          </CardGrid>
        </>
      )}
    </PageContainer>
  );
}
