import { create } from 'zustand';

/** Public site configuration served by GET /api/site-config (SITE_NAME etc.). */
export interface SiteState {
  siteName: string;
  supportEmail: string;
  loaded: boolean;
  load: () => Promise<void>;
}

export const DEFAULT_SITE_NAME = 'Westcountry Prizes';

export const useSite = create<SiteState>((set) => ({
  siteName: DEFAULT_SITE_NAME,
  supportEmail: 'support@westcountryprizes.co.uk',
  loaded: false,
  load: async () => {
    const res = await fetch('/api/site-config', { credentials: 'include' });
    if (!res.ok) return; // keep the defaults; the page still works
    const body = (await res.json()) as { siteName: string; supportEmail: string };
    set({ siteName: body.siteName, supportEmail: body.supportEmail, loaded: true });
  },
}));

/** The brand name to show in copy (defaults to Westcountry Prizes until the server answers). */
export const useSiteName = () => useSite((s) => s.siteName);
