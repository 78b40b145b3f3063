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
import type { HeroImage } from './competitions';
import type { AdminInstantWin } from './instantWins';
import { InstantWinParamsSchema, InstantWinUpdateSchema } from './instantWins';
import { SETTING_CARDS } from './siteSettings';

type HeroAnswer = HeroImage & { success: boolean };
const UPLOAD_NOTE = "A multipart upload (field 'image'), sent with apiUpload.";

/** The back office's competitions, image uploads and hero image. */
export const ADMIN_CATALOGUE_ROUTES = {
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
  /** Duplicate, or Relist an ended one: a new draft (docs/product.md#drafts-and-scheduled-launches). */
  duplicateCompetition: route<{ id: number }>()({
    method: 'POST',
    path: '/api/admin/competitions/:id/duplicate',
    params: AdminIdParamSchema,
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
