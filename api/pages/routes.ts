import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { CATALOGUE_ROUTES as R } from '../../contract/apiCatalogue';
import { SITE_SETTINGS } from '../../contract/siteSettings';
import { siteSettingView } from '../catalogue/settings';
import { publicCompetition } from '../draws/publicCompetition';
import { serve } from '../http/serve';
import type { AppDeps } from '../platform/context';
import { imageFileOf, shareImage } from './shareImage';

/** The link previews' pictures (docs/product.md#link-previews); `webRoot` holds the build's images. */
export function registerShareImageRoutes(
  router: Router,
  { db, config }: AppDeps,
  webRoot: string | undefined,
) {
  const send = (ctx: Context, jpeg: Buffer) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'image/jpeg';
    ctx.body = jpeg;
  };
  serve(router, R.shareImage, async ({ params: { id } }, ctx) => {
    const c = await publicCompetition(db, id);
    send(ctx, await shareImage(imageFileOf(c.image, config.dataDir, webRoot), config.siteName, c.title));
  });
  serve(router, R.homeShareImage, async (_, ctx) => {
    const hero = await siteSettingView(db, SITE_SETTINGS.heroImage);
    const file = imageFileOf(hero.imageUrl, config.dataDir, webRoot);
    send(ctx, await shareImage(file, config.siteName, 'Win prizes from the South West'));
  });
}
