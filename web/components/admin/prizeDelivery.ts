import type { AdminWinner } from '../../../contract/draw';
import { apiSend, messageOf } from '../../api/client';
import { toast } from '../../stores/toast';

/** Marks a winner's prize delivered (or not yet); returns the updated winner, or null on failure. */
export async function savePrizeDelivered(
  winner: Pick<AdminWinner, 'competitionId' | 'title'>,
  delivered: boolean,
): Promise<AdminWinner | null> {
  try {
    const updated = await apiSend<AdminWinner>('PATCH', `/api/admin/winners/${winner.competitionId}`, {
      prizeDelivered: delivered,
    });
    toast({
      title: delivered ? 'Prize marked delivered' : 'Prize marked not delivered',
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

/** Records the town published with the winner's name; returns the updated winner, or null on failure. */
export async function saveWinnerTown(
  winner: Pick<AdminWinner, 'competitionId' | 'title'>,
  town: string,
): Promise<AdminWinner | null> {
  try {
    const updated = await apiSend<AdminWinner>('PATCH', `/api/admin/winners/${winner.competitionId}`, {
      winnerTown: town,
    });
    toast({ title: 'Winner town saved', description: winner.title, variant: 'success' });
    return updated;
  } catch (err) {
    toast({
      title: 'Could not save the town',
      description: messageOf(err, 'Please try again.'),
      variant: 'destructive',
    });
    return null;
  }
}
