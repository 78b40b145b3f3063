import { create } from 'zustand';
import { PLATFORM_ROUTES } from '../../contract/apiPlatform';
import type { OutputOf } from '../../contract/apiRoute';
import type { Charity, Promoter } from '../../contract/promoter';
import { pageSeed } from '../ssr/seed';

/** Public site configuration served by GET /api/site-config (SITE_NAME etc.). */
export interface SiteState {
  siteName: string;
  supportEmail: string;
  /** The promoter from Site Settings; every detail null until loaded or set. */
  promoter: Promoter;
  charities: Charity[];
  loaded: boolean;
  load: () => Promise<void>;
}

export const DEFAULT_SITE_NAME = 'Westcountry Prizes';

const NO_PROMOTER: Promoter = { name: null, companyNumber: null, address: null, phone: null, email: null };

// A server-rendered page carries the names it was rendered with (web/ssr/seed.ts).
const seeded = pageSeed()?.site;

export const useSite = create<SiteState>((set, get) => ({
  siteName: seeded?.siteName ?? DEFAULT_SITE_NAME,
  supportEmail: seeded?.supportEmail ?? 'support@westcountryprizes.co.uk',
  promoter: seeded?.promoter ?? NO_PROMOTER,
  charities: seeded?.charities ?? [],
  loaded: seeded !== undefined,
  load: async () => {
    if (get().loaded) return;
    const res = await fetch(PLATFORM_ROUTES.siteConfig.path, { credentials: 'include' });
    if (!res.ok) return; // keep the defaults; the page still works
    const body = (await res.json()) as OutputOf<typeof PLATFORM_ROUTES.siteConfig>;
    set({
      siteName: body.siteName,
      supportEmail: body.supportEmail,
      promoter: body.promoter,
      charities: body.charities,
      loaded: true,
    });
  },
}));

/** The brand name to show in copy (defaults to Westcountry Prizes until the server answers). */
export const useSiteName = () => useSite((s) => s.siteName);
