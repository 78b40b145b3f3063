import { DRAW_ROUTES } from '../../../contract/apiDraws';
import type { AdminWinner } from '../../../contract/draw';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { toast } from '../../stores/toast';

type WinnerRef = Pick<AdminWinner, 'competitionId' | 'title'>;

/** PATCHes the winner record and toasts the outcome; the updated winner, or null on failure. */
async function updateWinner(
  winner: WinnerRef,
  body: { prizeDelivered?: boolean; winnerTown?: string },
  titles: { done: string; failed: string },
): Promise<AdminWinner | null> {
  try {
    const updated = await call(DRAW_ROUTES.updateWinner, { params: { id: winner.competitionId }, body });
    toast({ title: titles.done, description: winner.title, variant: 'success' });
    return updated;
  } catch (err) {
    toast({ title: titles.failed, description: messageOf(err, 'Please try again.'), variant: 'destructive' });
    return null;
  }
}

/** Marks a winner's prize delivered (or not yet). */
export const savePrizeDelivered = (winner: WinnerRef, delivered: boolean) =>
  updateWinner(
    winner,
    { prizeDelivered: delivered },
    {
      done: delivered ? 'Prize marked delivered' : 'Prize marked not delivered',
      failed: 'Could not update the prize',
    },
  );

/** Records the town published with the winner's name. */
export const saveWinnerTown = (winner: WinnerRef, town: string) =>
  updateWinner(
    winner,
    { winnerTown: town },
    { done: 'Winner town saved', failed: 'Could not save the town' },
  );

/** Marks one prize of several delivered (or not yet): PATCH …/prizes/:position. */
export async function savePrizePositionDelivered(
  winner: WinnerRef,
  position: number,
  label: string,
  delivered: boolean,
): Promise<AdminWinner | null> {
  try {
    const updated = await call(DRAW_ROUTES.updatePrize, {
      params: { id: winner.competitionId, position },
      body: { prizeDelivered: delivered },
    });
    toast({
      title: delivered ? `${label} marked delivered` : `${label} marked not delivered`,
      description: winner.title,
      variant: 'success',
    });
    return updated;
  } catch (err) {
    toast({
      title: 'Could not update the prize',
      description: messageOf(err, 'Please try again.'),
      variant: 'destructive',
    });
    return null;
  }
}
