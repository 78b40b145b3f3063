import type { Router } from '@koa/router';
import { ADMIN_ORDER_ROUTES as A } from '../../../contract/apiAdminOrders';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { PaymentGateway } from '../../payments';
import type { AppDeps } from '../../platform/context';
import { cancelCompetition } from '../bulkRefund/cancelCompetition';
import { bulkRefundJob } from '../bulkRefund/jobView';

/** Cancelling a competition with its bulk refund, and the job's progress (docs/product.md#minimum-sales-and-cancellation). */
export function registerBulkRefundRoutes(
  router: Router,
  { db, events, logger, mailer, config, faults }: AppDeps,
  gateway: PaymentGateway,
): void {
  const admin = requireAdmin({ db, config });

  serve(router, A.cancelCompetition, admin, async (input, ctx) => {
    const deps = { db, events, logger, mailer, gateway, faults };
    const answer = await cancelCompetition(deps, actorOf(ctx), input.params.id, input.body);
    ctx.status = 202;
    return answer;
  });

  serve(router, A.bulkRefundJob, admin, async (input, ctx) => {
    ctx.set('Cache-Control', 'no-store');
    return bulkRefundJob(db, input.params.jobId);
  });
}
