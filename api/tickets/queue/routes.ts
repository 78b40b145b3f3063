import type { Router } from '@koa/router';
import { ADMIN_QUEUE_ROUTES as A, QUEUE_ROUTES as R } from '../../../contract/apiQueue';
import { actorOf } from '../../http/adminActor';
import { requireAdmin } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { cartOwnerOf } from '../routes';
import { adminQueueView, queueOrder, setAdmitRate } from './admin';
import { joinQueue } from './places';

/** A queued launch's queue, public and admin (docs/draws.md#launch-queue). */
export function registerQueueRoutes(router: Router, { db, events, config, rateLimits }: AppDeps): void {
  const settings = config.launchQueue;
  const admin = requireAdmin({ db, config });
  // Joining again answers the same place; a script hammering it is slowed here (docs/security.md).
  const perSession = rateLimits.limiter({ name: 'launch-queue', points: 60, durationSeconds: 60 });

  serve(router, R.joinQueue, async ({ params: { id } }, ctx) => {
    const owner = cartOwnerOf(ctx);
    await perSession.hit(
      owner.guestId,
      (seconds) => `You have asked about your place too often. Please wait ${seconds} seconds.`,
    );
    return joinQueue(db, { ...settings, secret: config.sessionSecret }, owner, ctx.ip, id, Date.now());
  });

  serve(router, R.queueOrder, async ({ params: { id } }) => queueOrder(db, id));

  serve(router, A.adminQueue, admin, async ({ params: { id } }) =>
    adminQueueView(db, id, settings, Date.now()),
  );

  serve(router, A.setAdmitRate, admin, async ({ params: { id }, body: { admitPerSecond } }, ctx) =>
    setAdmitRate({ db, events, settings }, actorOf(ctx), id, admitPerSecond, Date.now()),
  );
}
