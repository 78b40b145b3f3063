import { create } from 'zustand';
import type { ACCOUNT_ROUTES } from '../../contract/apiAccounts';
import type { SignUpOffer } from '../../contract/site';
import { call } from '../api/call';
import { pageSeed } from '../ssr/seed';

/** GET /api/promotions/current, asked once per page load (banner, hero and Terms share it). */
interface PromotionsState {
  /** undefined until the server answers; null when there is no offer (or it could not be read). */
  signUpOffer: SignUpOffer | null | undefined;
  status: 'idle' | 'loading' | 'done';
  load: () => Promise<void>;
}

// A server-rendered page carries the answer it was rendered with (web/ssr/seed.ts).
const seeded = pageSeed()?.promotions;

export const usePromotions = create<PromotionsState>((set, get) => ({
  signUpOffer: seeded?.signUpOffer,
  status: seeded ? 'done' : 'idle',
  load: async () => {
    if (get().status !== 'idle') return;
    set({ status: 'loading' });
    try {
      const body = await call<typeof ACCOUNT_ROUTES.currentPromotions>({
        method: 'GET',
        path: '/api/promotions/current',
      });
      set({ signUpOffer: body.signUpOffer, status: 'done' });
    } catch {
      // No offer is stated unless the server confirms one.
      set({ signUpOffer: null, status: 'done' });
    }
  },
}));
