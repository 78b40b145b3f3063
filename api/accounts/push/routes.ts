import type { Router } from '@koa/router';
import { PUSH_ROUTES as R } from '../../../contract/apiPush';
import { requireUser } from '../../http/auth';
import { serve } from '../../http/serve';
import type { AppDeps } from '../../platform/context';
import { subscribe, unsubscribe } from './subscriptions';
import { loadVapidKeys, type VapidKeys } from './vapidKeys';

/** `GET /api/push/public-key` and a signed-in customer's `POST`/`DELETE /api/push/subscriptions`. */
export function registerPushRoutes(router: Router, { db, config, rateLimits }: AppDeps): void {
  const signedIn = requireUser(db);
  // Made (or read) at start-up by server/startServer.ts; read once here.
  let keys: Promise<VapidKeys> | undefined;
  const publicKey = async () => {
    keys ??= loadVapidKeys(db, config.sessionSecret, config.push.vapid);
    return (await keys).publicKey;
  };
  const perSession = rateLimits.limiter({ name: 'push-subscriptions', points: 30, durationSeconds: 600 });

  serve(router, R.publicKey, async () => ({ publicKey: await publicKey() }));
  serve(router, R.subscribe, signedIn, async ({ body }, ctx) => {
    const userId = ctx.state.user!.id;
    await perSession.hit(
      String(userId),
      (seconds) => `You have changed notifications too often. Please wait ${seconds} seconds and try again.`,
    );
    await subscribe(db, userId, body, config.push);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    return { subscribed: true };
  });
  serve(router, R.unsubscribe, signedIn, async ({ body }, ctx) => {
    await unsubscribe(db, ctx.state.user!.id, body.endpoint);
    return { subscribed: false };
  });
}
