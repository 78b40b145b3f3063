import { type ReactNode, useEffect } from 'react';
import type { DRAW_ROUTES } from '../../../../contract/apiDraws';
import type { PublicCompetition } from '../../../../contract/competitions';
import { useRoute } from '../../../api/call';
import {
  type LiveCompetition,
  useEditedCompetition,
  useLiveCompetition,
} from '../../../live/competitionStore';
import { useDrawPending, useLiveDraw } from '../../../live/drawStore';
import { useHasPassed } from '../../competitions/useHasPassed';
import { DrawReveal } from '../DrawReveal';
import { useReducedMotion } from '../useReducedMotion';
import { OpenStage, RevealStage, Stage, WaitingStage } from './DrawRoomStages';
import { useDrawRoomViewers } from './useViewers';

export interface DrawRoom {
  loading: boolean;
  competition: PublicCompetition | undefined;
  live: LiveCompetition | undefined;
  /** What the room shows now: open, waiting for the round, drawing, the reveal, or closed. */
  stage: ReactNode;
  /** How many are watching the room now (null until the server has said). */
  viewers: number | null;
}

/**
 * A draw room's state, shared by the page (/competitions/:id/draw) and the streaming overlay
 * (/overlay/draw/:id): the competition, kept live, and the stage it is at.
 */
export function useDrawRoom(id: string | undefined): DrawRoom {
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
  const viewers = useDrawRoomViewers(c?.id);

  // The result carries no beacon signature: read the competition again for the browser's checks
  // (and in case its competition:updated went by while the socket was down).
  const { reload } = loaded;
  const resultSeen = Boolean(liveDraw?.result);
  useEffect(() => {
    if (resultSeen) reload();
  }, [resultSeen, reload]);

  let stage: ReactNode = null;
  if (!c) stage = null;
  else if (c.draw) stage = <RevealStage competition={c} />;
  // Drawing (draw:started, or the result before the competition with its draw has arrived).
  else if (liveDraw) stage = <DrawReveal totalTickets={c.totalTickets} reducedMotion={reducedMotion} />;
  else if (c.drawBeacon ?? pending)
    stage = (
      <WaitingStage
        round={c.drawBeacon?.round ?? pending!.round}
        expectedAt={c.drawBeacon?.dueAt ?? pending!.expectedAt}
      />
    );
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
  return { loading: loaded.loading, competition: c, live, stage, viewers };
}
