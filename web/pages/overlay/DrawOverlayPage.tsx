import styled from 'styled-components';
import { useParams } from 'wouter';
import { useDrawRoom } from '../../components/draws/room/useDrawRoom';

export const OverlayPanel = styled.section`
  background: rgba(15, 23, 42, 0.88);
  color: #fff;
  border-radius: 24px;
  padding: 32px 40px;
  display: grid;
  gap: 16px;
  h1 { margin: 0; font-size: 2.25rem; color: inherit; }
  /* The draw room's steps, readable from across a stream. */
  li { background: rgba(255, 255, 255, 0.1); color: #fff; }
  code { background: rgba(255, 255, 255, 0.15); color: #fff; font-size: 1.25rem; }
`;

/** /overlay/draw/:id: the draw room's countdown and reveal, in big type, for a stream. */
export default function DrawOverlayPage() {
  const { id } = useParams<{ id: string }>();
  const { competition, stage, viewers } = useDrawRoom(id);
  if (!competition) return null;
  return (
    <OverlayPanel data-testid="draw-overlay">
      <h1>Live draw: {competition.title}</h1>
      {viewers !== null && (
        <p data-testid="draw-room-viewers">{viewers.toLocaleString('en-GB')} watching now</p>
      )}
      {stage}
    </OverlayPanel>
  );
}
