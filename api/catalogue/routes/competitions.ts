import type { Router } from '@koa/router';
import { SkillAnswerSchema } from '../../../contract/cart';
import { CompetitionListQuerySchema, IdParamSchema } from '../../../contract/competitions';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { listEntries, publicCompetitionList } from '../competitions';
import { presentEntries } from '../presenter';
import { entryTerms, siteSettingView } from '../settings';
import { answerSkillQuestion, type SkillDeps, showSkillQuestion } from '../skill/answers';

/**
 * Public, read-only competition data. Catalogue may not call the domains that build the rest:
 * GET /api/competitions/:id (with the draw's result) is in draws/routes.ts, the available and
 * reserved numbers in tickets/routes.ts.
 */
export function registerCompetitionRoutes(router: Router, { db, events, config }: AppDeps): void {
  const idOf = (params: unknown) => parse(IdParamSchema, params).id;
  const skill: SkillDeps = { db, events, maxAttempts: config.skillMaxAttempts };

  // The live settings the Terms and competition pages state (postal address, hold time, cap).
  router.get('/api/entry-terms', async (ctx) => {
    ctx.body = await entryTerms(db, config.reservationTtlSeconds);
  });

  router.get('/api/competitions', async (ctx) => {
    const { category } = parse(CompetitionListQuerySchema, ctx.query);
    ctx.body = await publicCompetitionList(db, category);
  });

  router.get('/api/competitions/:id/entries', async (ctx) => {
    ctx.body = presentEntries(await listEntries(db, idOf(ctx.params)));
  });

  // The question this visitor answers (a random one of the pool, remembered in the session).
  router.get('/api/competitions/:id/skill-question', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await showSkillQuestion(skill, ctx.session!, idOf(ctx.params));
  });

  router.post('/api/competitions/:id/skill-answer', async (ctx) => {
    const { answer } = parse(SkillAnswerSchema, ctx.request.body);
    ctx.body = await answerSkillQuestion(skill, ctx.session!, idOf(ctx.params), answer);
  });

  // Public read of the home page hero (the admin write side comes with the back office).
  router.get('/api/admin/hero-image', async (ctx) => {
    ctx.body = await siteSettingView(db, SITE_SETTINGS.heroImage);
  });
}
