import type { Router } from '@koa/router';
import { SITE_SETTING_ROUTES } from '../../../contract/apiAdminCatalogue';
import { SETTING_CARDS } from '../../../contract/siteSettings';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { saveSiteSetting, siteSettingView } from '../settings';

/**
 * GET and PUT of every setting with a card on /admin/site-settings (contract/siteSettings.ts): the
 * default per-person cap, the operator details, the postal entry address, the compliance settings.
 */
export function registerSiteSettingRoutes(router: Router, { db, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  for (const setting of SETTING_CARDS) {
    const [read, write] = SITE_SETTING_ROUTES.filter((r) => r.path === setting.path);
    serve(router, read!, admin, () => siteSettingView(db, setting));
    // The entry's body schema is setting.schema: serve has parsed the body with it.
    serve(router, write!, admin, ({ body }, ctx) =>
      saveSiteSetting(db, actorOf(ctx), setting, setting.fromInput(body as Record<string, unknown>)),
    );
  }
}
