import fs from 'node:fs';
import path from 'node:path';
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ADMIN_CATALOGUE_ROUTES as A } from '../../../contract/apiAdminCatalogue';
import { SITE_SETTINGS } from '../../../contract/siteSettings';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { badRequest } from '../../platform/errors';
import { imageUpload } from '../imageUpload';
import { resetSiteSetting, saveSiteSetting } from '../settings';
import { UPLOADS_URL_PREFIX, uploadsDirOf } from '../uploads';

// Image uploads and the hero image setting (docs/product.md#admin-site-settings); the other
// settings' routes are in siteSettings.ts.
// The spec's "Direct Upload (Auth Bypass)" endpoints keep their paths but not the bypass: every
// one is the same admin-only upload.

/** The stored image's URL, as every upload answers (`success` for the hero endpoints' readers). */
const answer = (ctx: Context) => {
  ctx.status = 201;
  ctx.body = { success: true, imageUrl: ctx.state.uploadedImageUrl! };
};

export function registerUploadRoutes(router: Router, { db, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  const hero = SITE_SETTINGS.heroImage;
  const setHero = (ctx: Context, imageUrl: string) => saveSiteSetting(db, actorOf(ctx), hero, { imageUrl });
  // Back to the bundled default (the uploaded file stays: other pages may still show it).
  const resetHero = (ctx: Context) => resetSiteSetting(db, actorOf(ctx), hero);
  // The guard runs first: nobody else can make the server read an upload body.
  const upload = imageUpload(config.dataDir);

  for (const entry of [A.uploadImage, A.directUpload, A.directUploadCompetitionImage]) {
    serve(router, entry, admin, upload, (_, ctx) => answer(ctx));
  }

  for (const entry of [A.uploadHeroImage, A.directUploadHeroImage]) {
    serve(router, entry, admin, upload, async (_, ctx) => {
      const view = await setHero(ctx, ctx.state.uploadedImageUrl!);
      ctx.status = 201;
      ctx.body = { success: true, ...view };
    });
  }

  serve(router, A.resetUploadedHeroImage, admin, async (_, ctx) => ({
    success: true,
    ...(await resetHero(ctx)),
  }));

  // Set to an image already uploaded, or reset (GET /api/admin/hero-image is the public read).
  serve(router, A.setHeroImage, admin, async ({ body: { imageUrl } }, ctx) => {
    const file = path.join(uploadsDirOf(config.dataDir), imageUrl.slice(UPLOADS_URL_PREFIX.length));
    if (!fs.existsSync(file)) throw badRequest('imageUrl must be an image uploaded to this site');
    return { success: true, ...(await setHero(ctx, imageUrl)) };
  });

  serve(router, A.resetHeroImage, admin, async (_, ctx) => ({ success: true, ...(await resetHero(ctx)) }));
}
