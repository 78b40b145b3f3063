import type { InstantWinPrize } from '../../../contract/instantWins';

// Orders' own events: an instant-win number was sold (docs/draws.md#instant-wins). realtime/ sends
// `instant-win:claimed` to the competition room and the admins, `instant:won` to the winner.
declare module '../../platform/events' {
  interface DomainEvents {
    'instant-win.claimed': {
      competitionId: number;
      number: number;
      prizeTitle: string;
      winnerDisplayName: string;
      /** The winner's account (null: a postal entry without one). */
      winnerUserId: number | null;
      prize: InstantWinPrize;
    };
  }
}
