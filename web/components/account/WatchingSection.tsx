import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { useAuth } from '../../stores/auth';
import { useWatchlist } from '../../stores/watchlist';
import { Countdown } from '../competitions/Countdown';
import { useHasPassed } from '../competitions/useHasPassed';
import { WatchHeart } from '../competitions/WatchHeart';
import { Card } from '../ui/Page';

// My Profile > Watching (docs/product.md#watching-a-competition): the competitions the customer
// watches, closing soonest first, each with its live countdown and the heart to stop watching.

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
`;

const Item = styled.li`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  padding-bottom: ${({ theme }) => theme.space.md};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  &:last-child { border-bottom: 0; padding-bottom: 0; }
  .head { display: flex; align-items: center; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; }
  a { font-weight: 700; }
`;

function Watched({
  competitionId,
  title,
  endDate,
}: {
  competitionId: number;
  title: string;
  endDate: string;
}) {
  const closed = useHasPassed(endDate);
  return (
    <Item data-testid="watched-competition">
      <div className="head">
        <Link href={`/competition/${competitionId}`}>{title}</Link>
        <WatchHeart competitionId={competitionId} title={title} />
      </div>
      {closed ? <span>Closed</span> : <Countdown endDate={endDate} />}
    </Item>
  );
}

export function WatchingSection() {
  const user = useAuth((s) => s.user);
  const load = useWatchlist((s) => s.load);
  const competitions = useWatchlist((s) => s.competitions);
  const status = useWatchlist((s) => s.status);
  useEffect(() => {
    if (user) void load(user.id);
  }, [user, load]);
  return (
    <Card aria-labelledby="watching-title">
      <h2 id="watching-title">Watching</h2>
      {status === 'done' && !competitions.length ? (
        <p>
          You are not watching any competitions. Tap the heart on a competition to follow it; with marketing
          e-mails on, we tell you before it closes.
        </p>
      ) : (
        <List aria-label="Competitions you watch">
          {competitions.map((c) => (
            <Watched
              key={c.competitionId}
              competitionId={c.competitionId}
              title={c.title}
              endDate={c.endDate}
            />
          ))}
        </List>
      )}
    </Card>
  );
}
