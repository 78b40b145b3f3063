import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import { useRoute } from '../../api/call';
import { useHasPassed } from '../../components/competitions/useHasPassed';
import { DrawReveal } from '../../components/draws/DrawReveal';
import { OpenStage, RevealStage, Stage, WaitingStage } from '../../components/draws/room/DrawRoomStages';
import { useReducedMotion } from '../../components/draws/useReducedMotion';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useEditedCompetition, useLiveCompetition } from '../../live/competitionStore';
import { useDrawPending, useLiveDraw } from '../../live/drawStore';
import { useSiteName } from '../../stores/site';

const Header = styled.header`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h1 { margin: 0; }
  a { color: ${({ theme }) => theme.colors.brand}; font-weight: 600; }
`;

/**
 * The live draw room (/competitions/:id/draw, docs/product.md#live-draw-room): one page every
 * viewer watches, from the countdown to the close, through the wait for the beacon round, to a
 * reveal shown to everyone in the same second and checked by each browser; afterwards the recorded
 * draw with its checks, and a replay.
 */
export default function DrawRoomPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const loaded = useRoute<typeof DRAW_ROUTES.competition>(
    { method: 'GET', path: '/api/competitions/:id' },
    { params: { id: id ?? '' } },
  );
  const live = useLiveCompetition(loaded.data?.id);
  const c = useEditedCompetition(loaded.data);
  const liveDraw = useLiveDraw(c?.id);
  const pending = useDrawPending(c?.id);
  const reducedMotion = useReducedMotion();
  const closed = useHasPassed(c?.endDate);

  // The result carries no beacon signature: read the competition again for the browser's checks
  // (and in case its competition:updated went by while the socket was down).
  const { reload } = loaded;
  const resultSeen = Boolean(liveDraw?.result);
  useEffect(() => {
    if (resultSeen) reload();
  }, [resultSeen, reload]);

  useEffect(() => {
    if (c?.title) document.title = `Live draw: ${c.title} | ${siteName}`;
  }, [c?.title, siteName]);

  if (loaded.loading && !c) return <Spinner label="Loading the draw" />;
  if (!c)
    return (
      <CenteredMessage>
        <h1>Competition not found</h1>
        <p>This competition may have closed or never existed.</p>
        <Link href="/" asChild>
          <ButtonLink>Return to Homepage</ButtonLink>
        </Link>
      </CenteredMessage>
    );

  const round = c.drawBeacon ?? (pending ? { round: pending.round, dueAt: pending.expectedAt } : null);
  let stage: React.ReactNode;
  if (c.draw) stage = <RevealStage competition={c} />;
  // Drawing (draw:started, or the result before the competition with its draw has arrived).
  else if (liveDraw) stage = <DrawReveal totalTickets={c.totalTickets} reducedMotion={reducedMotion} />;
  else if (round) stage = <WaitingStage round={round.round} expectedAt={round.dueAt} />;
  else if (c.status === 'active' && !closed)
    stage = <OpenStage competition={c} ticketsSold={live?.ticketsSold ?? c.ticketsSold} />;
  else
    stage = (
      <Stage data-testid="draw-room-closed">
        <h2>Entries are closed</h2>
        <p>
          {c.ticketsSold === 0
            ? 'No tickets were sold, so there is nothing to draw.'
            : 'The beacon round is fixed as soon as the entries are final: keep this page open.'}
        </p>
      </Stage>
    );

  return (
    <PageContainer>
      <Header>
        <Link href={`/competitions/${c.id}`}>← {c.title}</Link>
        <h1>Live draw: {c.title}</h1>
      </Header>
      <Card>{stage}</Card>
    </PageContainer>
  );
}
