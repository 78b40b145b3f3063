import styled from 'styled-components';
import { useParams } from 'wouter';
import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import { useRoute } from '../../api/call';
import { EntriesGrid } from '../../components/competitions/EntriesGrid';
import { heldCount, useLiveCompetition } from '../../live/competitionStore';
import { useLiveRev } from '../../live/liveNumbers';
import { OverlayPanel } from './DrawOverlayPage';

const Counts = styled.p`
  margin: 0;
  display: flex;
  gap: 48px;
  font-size: 3rem;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
`;

const GridBox = styled.div`
  background: #fff;
  color: #0f172a;
  border-radius: 16px;
  padding: 16px;
`;

/** /overlay/grid/:id: the live grid with its sold and held counts, for streams during sales. */
export default function GridOverlayPage() {
  const { id } = useParams<{ id: string }>();
  const loaded = useRoute<typeof DRAW_ROUTES.competition>(
    { method: 'GET', path: '/api/competitions/:id' },
    { params: { id: id ?? '' } },
  );
  const c = loaded.data;
  const live = useLiveCompetition(c?.id);
  useLiveRev(live); // the counts follow every change
  if (!c) return null;
  const sold = live?.ticketsSold ?? c.ticketsSold;
  const held = live ? heldCount(live) : 0;
  return (
    <OverlayPanel data-testid="grid-overlay">
      <h1>{c.title}</h1>
      <Counts>
        <span data-testid="overlay-sold">{sold.toLocaleString('en-GB')} sold</span>
        <span data-testid="overlay-held">{held.toLocaleString('en-GB')} held</span>
        <span>{c.totalTickets.toLocaleString('en-GB')} in all</span>
      </Counts>
      <GridBox>
        <EntriesGrid totalTickets={c.totalTickets} entries={[]} live={live} />
      </GridBox>
    </OverlayPanel>
  );
}
