import type { Context } from 'koa';
import type { PageSeed } from '../../contract/pageSeed';
import { SITE_SETTINGS } from '../../contract/siteSettings';
import { currentSignUpOffer } from '../accounts/promos';
import { publicCompetitionList } from '../catalogue/competitions';
import { siteSettingView } from '../catalogue/settings';
import { publicCompetition } from '../draws/publicCompetition';
import { currentUser } from '../http/auth';
import type { AppDeps } from '../platform/context';
import { publicSiteFacts } from '../platform/settings/promoter';
import { competitionHead, homeHead } from './linkPreview';

/** A page the server renders: what it renders it with, and its <title>. */
export interface SeededPage {
  seed: PageSeed;
  title: string;
  /** Link-preview tags for its <head> (api/pages/linkPreview.ts), already escaped. */
  head?: string;
}

const HOME_DESCRIPTION =
  'Prize competitions from a family-run business in the South West: cash, tech, home, luxury and more.';

/** The competition pages, in the exact spelling the site links to (any other gets the app shell). */
const COMPETITION_PAGE = /^\/competitions?\/([1-9][0-9]{0,9})$/;
/** The live draw room, rendered from the same competition (web/pages/competitions/DrawRoomPage.tsx). */
const DRAW_ROOM_PAGE = /^\/competitions\/([1-9][0-9]{0,9})\/draw$/;

/**
 * The data the server renders a page with, through the functions the API's routes answer with (so
 * the page shows what GET /api/... would): the home page (its hero image and the competitions) and
 * a viewable competition's page, for a visitor. Undefined for every other page, for a competition
 * that cannot be viewed (its 404 page) and for a signed-in person: their pages stay rendered by the
 * browser, which knows who they are (the server renders one view for every visitor).
 */
export function pageSeeds({ db, config }: Pick<AppDeps, 'db' | 'config'>) {
  return async (ctx: Context): Promise<SeededPage | undefined> => {
    const home = ctx.path === '/';
    const drawRoom = DRAW_ROOM_PAGE.exec(ctx.path)?.[1];
    const competitionId = home ? undefined : (drawRoom ?? COMPETITION_PAGE.exec(ctx.path)?.[1]);
    if (!home && competitionId === undefined) return undefined;
    if (await currentUser(db, ctx)) return undefined;

    // Keyed by the API path each page asks for (web/pages/home/HomePage.tsx,
    // web/pages/competitions/CompetitionDetailPage.tsx).
    const api: Record<string, unknown> = {};
    let title: string;
    let head: string;
    const origin = config.publicUrl.replace(/\/$/, '');
    if (home) {
      api['/api/admin/hero-image'] = await siteSettingView(db, SITE_SETTINGS.heroImage);
      api['/api/competitions'] = await publicCompetitionList(db);
      title = `${config.siteName} | Win prizes from the South West`;
      head = homeHead(origin, config.siteName, HOME_DESCRIPTION);
    } else {
      try {
        const competition = await publicCompetition(db, Number(competitionId));
        api[`/api/competitions/${competitionId}`] = competition;
        title = `${drawRoom ? 'Live draw: ' : ''}${competition.title} | ${config.siteName}`;
        head = competitionHead(competition, origin, config.siteName, drawRoom ? 'draw room' : 'competition');
      } catch (err) {
        if ((err as { status?: number }).status === 404) return undefined;
        throw err;
      }
    }
    return {
      title,
      head,
      seed: {
        api,
        session: { user: null },
        site: {
          siteName: config.siteName,
          supportEmail: config.supportEmail,
          ...(await publicSiteFacts(db)),
        },
        promotions: { signUpOffer: await currentSignUpOffer(db) },
        renderedAt: Date.now(),
      },
    };
  };
}
