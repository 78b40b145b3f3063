import type { GenericSchema } from 'valibot';
import type { AdminCompetitionView } from './admin';
import {
  AdminIdParamSchema,
  CompetitionCreateSchema,
  CompetitionTabQuerySchema,
  CompetitionUpdateSchema,
  HeroImageSetSchema,
} from './admin';
import { type ApiRoute, route } from './apiRoute';
import { SkillAnswerSchema } from './cart';
import type { CompetitionEntry, HeroImage, PublicCompetition } from './competitions';
import { CompetitionListQuerySchema, IdParamSchema } from './competitions';
import type { AdminInstantWin } from './instantWins';
import { InstantWinParamsSchema, InstantWinUpdateSchema } from './instantWins';
import type { EntryTerms } from './postal';
import { SETTING_CARDS } from './siteSettings';
import type { SkillAnswerResult, SkillQuestionView } from './skill';

type HeroAnswer = HeroImage & { success: boolean };
const UPLOAD_NOTE = "A multipart upload (field 'image'), sent with apiUpload.";

/** Public competition data, skill questions, the admin's competitions, uploads and the hero image. */
export const CATALOGUE_ROUTES = {
  entryTerms: route<EntryTerms>()({ method: 'GET', path: '/api/entry-terms' }),
  competitions: route<PublicCompetition[]>()({
    method: 'GET',
    path: '/api/competitions',
    query: CompetitionListQuerySchema,
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

  adminCompetitions: route<AdminCompetitionView[]>()({
    method: 'GET',
    path: '/api/admin/competitions',
    query: CompetitionTabQuerySchema,
  }),
  createCompetition: route<AdminCompetitionView>()({
    method: 'POST',
    path: '/api/admin/competitions',
    body: CompetitionCreateSchema,
  }),
  updateCompetition: route<AdminCompetitionView>()({
    method: 'PUT',
    path: '/api/admin/competitions/:id',
    params: AdminIdParamSchema,
    body: CompetitionUpdateSchema,
  }),
  setInstantWinDelivered: route<AdminInstantWin>()({
    method: 'PATCH',
    path: '/api/admin/competitions/:id/instant-wins/:prizeId',
    params: InstantWinParamsSchema,
    body: InstantWinUpdateSchema,
  }),
  deleteCompetition: route<{ success: boolean; message: string }>()({
    method: 'DELETE',
    path: '/api/admin/competitions/:id',
    params: AdminIdParamSchema,
  }),

  uploadImage: route()({
    method: 'POST',
    path: '/api/admin/upload-image',
    kind: 'upload',
    note: UPLOAD_NOTE,
  }),
  directUpload: route()({ method: 'POST', path: '/api/direct-upload', kind: 'upload', note: UPLOAD_NOTE }),
  directUploadCompetitionImage: route()({
    method: 'POST',
    path: '/api/direct-upload/competition-image',
    kind: 'upload',
    note: UPLOAD_NOTE,
  }),
  uploadHeroImage: route()({
    method: 'POST',
    path: '/api/uploads/hero-image',
    kind: 'upload',
    note: UPLOAD_NOTE,
  }),
  directUploadHeroImage: route()({
    method: 'POST',
    path: '/api/direct-upload/hero-image',
    kind: 'upload',
    note: UPLOAD_NOTE,
  }),
  resetUploadedHeroImage: route<HeroAnswer>()({ method: 'DELETE', path: '/api/uploads/hero-image' }),
  setHeroImage: route<HeroAnswer>()({
    method: 'PUT',
    path: '/api/admin/hero-image',
    body: HeroImageSetSchema,
  }),
  resetHeroImage: route<HeroAnswer>()({ method: 'DELETE', path: '/api/admin/hero-image' }),
};

type SettingRoute = ApiRoute<
  'GET' | 'PUT',
  string,
  undefined,
  undefined,
  GenericSchema | undefined,
  'json',
  unknown
>;

/**
 * GET and PUT of each setting with a card (contract/siteSettings.ts declares them: path, body
 * schema, answer); the admin's Site Settings card calls them through the setting itself.
 */
export const SITE_SETTING_ROUTES: readonly SettingRoute[] = SETTING_CARDS.flatMap((setting) => [
  route<unknown>()({ method: 'GET', path: setting.path, note: 'A site setting (contract/siteSettings.ts).' }),
  route<unknown>()({
    method: 'PUT',
    path: setting.path,
    body: setting.schema,
    note: 'A site setting (contract/siteSettings.ts).',
  }),
]);
