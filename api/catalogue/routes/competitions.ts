import type { Router } from '@koa/router';
import { CATALOGUE_ROUTES as R } from '../../../contract/apiCatalogue';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { isAdminViewer } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { listEntries, publicCompetitionList } from '../competitions';
import { presentEntries } from '../presenter';
import { entryTerms, siteSettingView } from '../settings';
import { sharedReads } from '../sharedReads';
import { answerSkillQuestion, type SkillDeps, showSkillQuestion } from '../skill/answers';

/**
 * Public, read-only competition data. Catalogue may not call the domains that build the rest:
 * GET /api/competitions/:id (with the draw's result) is in draws/routes.ts, the available and
 * reserved numbers in tickets/routes.ts.
 */
export function registerCompetitionRoutes(router: Router, { db, events, config }: AppDeps): void {
  const skill: SkillDeps = { db, events, maxAttempts: config.skillMaxAttempts };

  // The live settings the Terms and competition pages state (postal address, hold time, cap).
  serve(router, R.entryTerms, async (_, _ctx) => {
    return await entryTerms(db, config.reservationTtlSeconds);
  });

  serve(router, R.competitions, async ({ query: { category } }, _ctx) => {
    return await publicCompetitionList(db, category);
  });

  // Every watching browser reloads the list when a sale lands: they share the reads (sharedReads).
  const entries = sharedReads(async (id: number) => presentEntries(await listEntries(db, id)));
  serve(router, R.entries, async (input, ctx) => {
    // An admin previewing a draft reads it alone (a draft is 404 to everyone else).
    if (ctx.session?.userId && (await isAdminViewer(db, ctx)))
      return presentEntries(await listEntries(db, input.params.id, { drafts: true }));
    return await entries(input.params.id);
  });

  // The question this visitor answers (a random one of the pool, remembered in the session).
  serve(router, R.skillQuestion, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return await showSkillQuestion(skill, ctx.session!, input.params.id);
  });

  serve(router, R.skillAnswer, async ({ params: { id }, body: { answer } }, ctx) => {
    return await answerSkillQuestion(skill, ctx.session!, id, answer);
  });

  // Public read of the home page hero (the admin write side comes with the back office).
  serve(router, R.heroImage, async (_, _ctx) => {
    return await siteSettingView(db, SITE_SETTINGS.heroImage);
  });
}
