import { route } from './apiRoute';
import { SkillAnswerSchema } from './cart';
import type { CompetitionEntry, HeroImage, PublicCompetition } from './competitions';
import { CompetitionListQuerySchema, IdParamSchema } from './competitions';
import type { EntryTerms } from './postal';
import type { SkillAnswerResult, SkillQuestionView } from './skill';

/** Public competition data, skill questions, the admin's competitions, uploads and the hero image. */
export const CATALOGUE_ROUTES = {
  entryTerms: route<EntryTerms>()({ method: 'GET', path: '/api/entry-terms' }),
  competitions: route<PublicCompetition[]>()({
    method: 'GET',
    path: '/api/competitions',
    query: CompetitionListQuerySchema,
  }),
  /** Link previews (docs/product.md#link-previews): the 1200×630 picture of a competition's link. */
  shareImage: route()({
    method: 'GET',
    path: '/api/competitions/:id/share-image.jpg',
    params: IdParamSchema,
    kind: 'file',
    note: 'A JPEG for Open Graph and X cards, read by link-preview crawlers.',
  }),
  homeShareImage: route()({
    method: 'GET',
    path: '/api/share-image.jpg',
    kind: 'file',
    note: "The home page's link-preview JPEG (the hero picture, 1200×630).",
  }),
  entries: route<CompetitionEntry[]>()({
    method: 'GET',
    path: '/api/competitions/:id/entries',
    params: IdParamSchema,
  }),
  skillQuestion: route<SkillQuestionView>()({
    method: 'GET',
    path: '/api/competitions/:id/skill-question',
    params: IdParamSchema,
  }),
  skillAnswer: route<SkillAnswerResult>()({
    method: 'POST',
    path: '/api/competitions/:id/skill-answer',
    params: IdParamSchema,
    body: SkillAnswerSchema,
  }),
  heroImage: route<HeroImage>()({
    method: 'GET',
    path: '/api/admin/hero-image',
    note: 'Public: the home page shows it.',
  }),
  availableNumbers: route<number[]>()({
    method: 'GET',
    path: '/api/competitions/:id/available-tickets',
    params: IdParamSchema,
  }),
  reservedNumbers: route<number[]>()({
    method: 'GET',
    path: '/api/competitions/:id/reserved-tickets',
    params: IdParamSchema,
  }),
};
