import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import { useDrawRoom } from '../../components/draws/room/useDrawRoom';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';

const Header = styled.header`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h1 { margin: 0; }
  a { color: ${({ theme }) => theme.colors.brand}; font-weight: 600; }
`;

/**
 * The live draw room (/competitions/:id/draw, docs/product.md#draws): one page every viewer
 * watches, from the countdown to the close, through the wait for the beacon round, to a reveal
 * shown to everyone in the same second and checked by each browser; afterwards the recorded draw
 * with its checks, and a replay.
 */
export default function DrawRoomPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const { loading, competition: c, stage, viewers } = useDrawRoom(id);

  useEffect(() => {
    if (c?.title) document.title = `Live draw: ${c.title} | ${siteName}`;
  }, [c?.title, siteName]);

  if (loading && !c) return <Spinner label="Loading the draw" />;
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
  return (
    <PageContainer>
      <Header>
        <Link href={`/competitions/${c.id}`}>← {c.title}</Link>
        <h1>Live draw: {c.title}</h1>
        {viewers !== null && (
          <p data-testid="draw-room-viewers" aria-live="polite">
            {viewers.toLocaleString('en-GB')} watching now
          </p>
        )}
      </Header>
      <Card>{stage}</Card>
    </PageContainer>
  );
}
