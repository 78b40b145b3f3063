import type { SessionView } from './auth';
import type { PublicSiteFacts } from './promoter';
import type { CurrentPromotions } from './site';

/**
 * What the server rendered a page with (api/pages/, web/entry-server.tsx), put in the page as
 * `<script id="page-seed" type="application/json">`: the browser's first render (the hydration)
 * reads the same, so it renders what the server did and asks the API for none of it again. Only
 * what the API answers any visitor: the server renders pages for visitors only.
 */
export interface PageSeed {
  /** API answers the render used, by the API path the page asks for (web/api/useApiData.ts). */
  api: Record<string, unknown>;
  /** GET /api/session's answer: always a visitor's. */
  session: SessionView;
  /** GET /api/site-config's names, the promoter and the charities. */
  site: { siteName: string; supportEmail: string } & PublicSiteFacts;
  /** GET /api/promotions/current. */
  promotions: CurrentPromotions;
  /** The server's clock at the render (ms): time-dependent text shows this moment until hydrated. */
  renderedAt: number;
}

/** The id of the seed's element. */
export const PAGE_SEED_ID = 'page-seed';

/** JSON that cannot end its <script> element early: every `<` escaped (`</script>`, `<!--`). */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');
