import { create } from 'zustand';
import type { MARKETING_ROUTES } from '../../contract/apiMarketing';
import type { WatchedCompetitionView } from '../../contract/marketing';
import { call } from '../api/call';
import { messageOf } from '../api/client';
import { toast } from './toast';

// The signed-in customer's watchlist (docs/product.md#watching-a-competition): the hearts on the
// cards and the competition page, and My Profile's list, read once per sign-in and kept in step.

interface WatchlistState {
  /** Whose list this is (a sign-out or another sign-in reloads it). */
  userId: number | null;
  competitions: WatchedCompetitionView[];
  status: 'idle' | 'loading' | 'done';
  load: (userId: number) => Promise<void>;
  /** Watches or stops watching; the heart shows the answer. */
  toggle: (competitionId: number) => Promise<void>;
  isWatching: (competitionId: number) => boolean;
}

export const useWatchlist = create<WatchlistState>((set, get) => ({
  userId: null,
  competitions: [],
  status: 'idle',
  load: async (userId) => {
    if (get().userId === userId && get().status !== 'idle') return;
    set({ userId, status: 'loading', competitions: [] });
    try {
      const { competitions } = await call<typeof MARKETING_ROUTES.watchlist>({
        method: 'GET',
        path: '/api/account/watchlist',
      });
      if (get().userId === userId) set({ competitions, status: 'done' });
    } catch {
      if (get().userId === userId) set({ status: 'idle' });
    }
  },
  toggle: async (competitionId) => {
    const watching = get().isWatching(competitionId);
    try {
      if (watching) {
        await call<typeof MARKETING_ROUTES.unwatch>(
          { method: 'DELETE', path: '/api/account/watchlist/:competitionId' },
          { params: { competitionId: String(competitionId) } },
        );
        set({ competitions: get().competitions.filter((c) => c.competitionId !== competitionId) });
      } else {
        await call<typeof MARKETING_ROUTES.watch>(
          { method: 'PUT', path: '/api/account/watchlist/:competitionId' },
          { params: { competitionId: String(competitionId) } },
        );
        // The list (with title, image and end date) as the server has it now.
        const { competitions } = await call<typeof MARKETING_ROUTES.watchlist>({
          method: 'GET',
          path: '/api/account/watchlist',
        });
        set({ competitions });
      }
    } catch (err) {
      toast({
        title: 'Could not update your watchlist',
        description: messageOf(err, ''),
        variant: 'destructive',
      });
    }
  },
  isWatching: (competitionId) => get().competitions.some((c) => c.competitionId === competitionId),
}));
