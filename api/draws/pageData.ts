import type { Knex } from 'knex';
import * as v from 'valibot';
import { IdParamSchema } from '../../contract/competitions';
import { COMPETITION_PAGE_PATHS, matchPagePath } from '../../contract/routes';
import { getHeroImage } from '../catalogue/settings';
import { publicCompetition } from './publicCompetition';

/**
 * The API answers a page's first render needs, by API path, put in its HTML
 * (api/http/staticSite.ts): what its largest element (the LCP) depends on, which would otherwise
 * wait for the scripts and then a request of its own before the image is even fetched. The home
 * page's hero image; a competition page's competition (served from draws, as its API answer is).
 */
export function pageData(db: Knex): (pathname: string) => Promise<Record<string, unknown> | undefined> {
  return async (pathname) => {
    if (pathname === '/') return { '/api/admin/hero-image': await getHeroImage(db) };
    const page = matchPagePath(pathname);
    if (!page || !COMPETITION_PAGE_PATHS.includes(page.path)) return undefined;
    const id = v.safeParse(IdParamSchema, page.params);
    if (!id.success) return undefined;
    try {
      // Keyed by the path the page asks for (web/pages/competitions/CompetitionDetailPage.tsx).
      const key = `/api/competitions/${encodeURIComponent(page.params.id ?? '')}`;
      return { [key]: await publicCompetition(db, id.output.id) };
    } catch (err) {
      // Not viewable: the page's 404 (pageStatus) with the plain shell.
      if ((err as { status?: number }).status === 404) return undefined;
      throw err;
    }
  };
}
