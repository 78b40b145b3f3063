import type { Router } from '@koa/router';
import { SETTING_CARDS } from '../../../contract/siteSettings';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { parse } from '../../http/validate';
import type { AppDeps } from '../../platform/context';
import { saveSiteSetting, siteSettingView } from '../settings';

/**
 * GET and PUT of every setting with a card on /admin/site-settings (contract/siteSettings.ts): the
 * default per-person cap, the operator details, the postal entry address, the compliance settings.
 */
export function registerSiteSettingRoutes(router: Router, { db, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });
  for (const setting of SETTING_CARDS) {
    router.get(setting.path, admin, async (ctx) => {
      ctx.body = await siteSettingView(db, setting);
    });
    router.put(setting.path, admin, async (ctx) => {
      const input = parse(setting.schema, ctx.request.body);
      ctx.body = await saveSiteSetting(db, actorOf(ctx), setting, setting.fromInput(input));
    });
  }
}
