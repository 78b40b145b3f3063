import type {} from '../../api/orders/instantWins/events';
import { ADMINS_ROOM, competitionRoom, userRoom } from '../rooms';
import type { ProjectionDeps } from './deps';

/** An instant win: everyone watching and the admins see the list update; the winner is told. */
export function projectInstantWins({ events, broadcast }: ProjectionDeps): void {
  events.subscribe('instant-win.claimed', (e) => {
    const { competitionId, number, prizeTitle, winnerDisplayName } = e;
    const claimed = { competitionId, number, prizeTitle, winnerDisplayName };
    broadcast([competitionRoom(competitionId), ADMINS_ROOM], 'instant-win:claimed', claimed);
    if (e.winnerUserId)
      broadcast(userRoom(e.winnerUserId), 'instant:won', { competitionId, number, prize: e.prize });
  });
}
