import type { Router } from '@koa/router';
import { ADMIN_ACCOUNT_ROUTES as A } from '../../../contract/apiAdminAccounts';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { presentPromo } from '../presenter';
import { createPromo, deletePromo, listPromos, resetAllCredits, updatePromo } from '../promos';

/** /admin/promos: Active and All tabs, create, edit, delete, Reset All Credits. */
export function registerAdminPromoRoutes(router: Router, { db, events, config }: AppDeps): void {
  const admin = requireAdmin({ db, config });

  serve(router, A.promos, admin, async ({ query: { active } }, _ctx) => {
    return (await listPromos(db, active === 'true' || active === '1')).map(presentPromo);
  });

  serve(router, A.createPromo, admin, async ({ body: input }, ctx) => {
    ctx.status = 201;
    return presentPromo(await createPromo({ db, events }, actorOf(ctx), input));
  });

  serve(router, A.updatePromo, admin, async ({ params: { id }, body }, ctx) => {
    return presentPromo(await updatePromo({ db, events }, actorOf(ctx), id, body));
  });

  serve(router, A.deletePromo, admin, async (input, ctx) => {
    const result = await deletePromo({ db, events }, actorOf(ctx), input.params.id);
    return { success: true, message: 'Promo deleted successfully', ...result };
  });

  serve(router, A.resetAllCredits, admin, async (_, ctx) => {
    return await resetAllCredits({ db, events }, actorOf(ctx));
  });
}
