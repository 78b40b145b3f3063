import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import { formatLongDate } from '../../../contract/londonTime';
import { useRoute } from '../../api/call';
import { useEditedCompetition, useLiveCompetition } from '../../live/competitionStore';
import { useLiveDraw } from '../../live/drawStore';

export type DrawState =
  | { kind: 'scheduled' }
  | { kind: 'drawing' }
  | { kind: 'drawn'; winningNumber: number; won: boolean };

export const DRAWING_TEXT = 'Sold out: the draw is happening now';

/**
 * Where an ordered competition's draw stands, live: on its date; sold out (an auto-win draws at
 * once) or started, so happening now; or drawn, with the winning number and whether one of
 * `numbers` won.
 */
export function useDrawState(competitionId: number, numbers: readonly number[]): DrawState {
  const loaded = useRoute<typeof DRAW_ROUTES.competition>(
    { method: 'GET', path: '/api/competitions/:id' },
    { params: { id: competitionId } },
  );
  // competition:updated lays the draw over the loaded copy the moment it is made.
  const c = useEditedCompetition(loaded.data);
  const live = useLiveCompetition(competitionId);
  const liveDraw = useLiveDraw(competitionId);
  const winningNumber = c?.draw?.winningNumber ?? liveDraw?.result?.winningNumber;
  if (winningNumber !== undefined)
    return { kind: 'drawn', winningNumber, won: numbers.includes(winningNumber) };
  const total = live?.totalTickets ?? c?.totalTickets;
  const sold = live?.ticketsSold ?? c?.ticketsSold;
  const soldOut = total !== undefined && sold !== undefined && sold >= total && Boolean(c?.autoWin);
  return soldOut || liveDraw ? { kind: 'drawing' } : { kind: 'scheduled' };
}

/** The words for a draw's state; `drawDate` while it is still to come (nothing without one). */
export function LiveDrawStatus({
  competitionId,
  numbers,
  drawDate,
  prefix = '',
}: {
  competitionId: number;
  numbers: readonly number[];
  drawDate: string | null;
  /** Words before the status (only when there is something to say). */
  prefix?: string;
}) {
  const state = useDrawState(competitionId, numbers);
  if (state.kind === 'scheduled')
    return drawDate ? (
      <>
        {prefix}
        {formatLongDate(drawDate)}
      </>
    ) : null;
  return (
    <span data-testid="draw-status" role="status">
      {prefix}
      {state.kind === 'drawing'
        ? DRAWING_TEXT
        : `Drawn: the winning ticket is #${state.winningNumber}${state.won ? '. You won!' : ''}`}
    </span>
  );
}
