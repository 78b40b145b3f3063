import { useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { create } from 'zustand';
import type { QUEUE_ROUTES } from '../../../contract/apiQueue';
import type { PublicCompetition } from '../../../contract/competitions';
import {
  etaText,
  QUEUE_JOIN_MINUTES,
  QueueAdmittedEventSchema,
  type QueuePlaceView,
  QueuePositionEventSchema,
} from '../../../contract/launchQueue';
import { formatClock } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { ApiError } from '../../api/client';
import { getSocket } from '../../live/socket';
import { Button } from '../ui/Button';
import { useHasPassed } from './useHasPassed';

// A queued launch on the competition page (docs/product.md#drafts-and-scheduled-launches, "Launch
// queue"): 'Join the queue' within the joining window (never on load), the live place, then
// 'You're in' with the buying controls until the admission ends.

type Place = Pick<QueuePlaceView, 'status' | 'position' | 'etaSeconds' | 'expiresAt'>;

const usePlaces = create<{ places: Record<number, Place | undefined> }>(() => ({ places: {} }));
const setPlace = (competitionId: number, place: Place) =>
  usePlaces.setState((s) => ({ places: { ...s.places, [competitionId]: place } }));

/** `queue:position` and `queue:admitted` for this competition, to this visitor's sockets only. */
function useQueueEvents(competitionId: number) {
  useEffect(() => {
    const socket = getSocket();
    const onPosition = (event: unknown) => {
      if (!v.is(QueuePositionEventSchema, event) || event.competitionId !== competitionId) return;
      if (usePlaces.getState().places[competitionId]?.status === 'admitted') return;
      setPlace(competitionId, { status: 'waiting', position: event.position, etaSeconds: event.etaSeconds });
    };
    const onAdmitted = (event: unknown) => {
      if (!v.is(QueueAdmittedEventSchema, event) || event.competitionId !== competitionId) return;
      setPlace(competitionId, { status: 'admitted', expiresAt: event.expiresAt });
    };
    socket.on('queue:position', onPosition);
    socket.on('queue:admitted', onAdmitted);
    return () => {
      socket.off('queue:position', onPosition);
      socket.off('queue:admitted', onAdmitted);
    };
  }, [competitionId]);
}

const Panel = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  border: 2px solid ${({ theme }) => theme.colors.brand};
  h2 { margin: 0; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p { margin: 0; }
`;

const minutesBefore = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) - minutes * 60_000).toISOString();

/**
 * The queue's part of the page: `children` (the buying controls) once admitted or the queue is
 * over; before the joining window, `beforeWindow` (the opening's countdown).
 */
export function LaunchQueue({
  competition,
  beforeWindow,
  children,
}: {
  competition: PublicCompetition & { startsAt: string };
  beforeWindow: React.ReactNode;
  children: React.ReactNode;
}) {
  const id = competition.id;
  useQueueEvents(id);
  const place = usePlaces((s) => s.places[id]);
  const windowOpen = useHasPassed(minutesBefore(competition.startsAt, QUEUE_JOIN_MINUTES));
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const admissionOver = useHasPassed(place?.expiresAt);
  if (competition.queueDrained || (place?.status === 'admitted' && !place.expiresAt)) return <>{children}</>;
  if (place?.status === 'admitted' && place.expiresAt && !admissionOver)
    return (
      <>
        <Panel data-testid="queue-admitted" role="status">
          <h2>You're in: hold your numbers before {formatClock(place.expiresAt)}</h2>
        </Panel>
        {children}
      </>
    );
  if (!place && !windowOpen) return <>{beforeWindow}</>;
  const join = async () => {
    setJoining(true);
    setError(null);
    try {
      const answer = await call<typeof QUEUE_ROUTES.joinQueue>(
        { method: 'POST', path: '/api/competitions/:id/queue' },
        { params: { id } },
      );
      // A socket update may have come first: keep the newer news.
      if (usePlaces.getState().places[id]?.status !== 'admitted') setPlace(id, answer);
    } catch (err) {
      setError(err instanceof ApiError ? (err.serverMessage ?? err.message) : 'Please try again.');
    } finally {
      setJoining(false);
    }
  };
  return (
    <Panel data-testid="launch-queue" aria-live="polite">
      {!place ? (
        <>
          <h2>This launch opens through a queue</h2>
          <p>Join now: at the opening everyone in the queue gets a place drawn at random.</p>
          <Button type="button" onClick={join} disabled={joining}>
            Join the queue
          </Button>
        </>
      ) : place.status === 'admitted' ? (
        <p>Your time to hold numbers has ended. The competition opens to all once the queue is empty.</p>
      ) : place.position ? (
        <p data-testid="queue-position">
          You're number {place.position} in the queue, {etaText(place.etaSeconds ?? 0)}
        </p>
      ) : (
        <p data-testid="queue-waiting">
          You're in the queue. Places are drawn at {formatClock(competition.startsAt)}: keep this page open.
        </p>
      )}
      {error && <p role="alert">{error}</p>}
    </Panel>
  );
}
