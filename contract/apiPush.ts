import { route } from './apiRoute';
import type { PushPublicKeyView, PushSubscriptionView } from './push';
import { PushSubscriptionSchema, PushUnsubscribeSchema } from './push';

/** Web push: the site's VAPID key and a signed-in customer's browser subscriptions. */
export const PUSH_ROUTES = {
  publicKey: route<PushPublicKeyView>()({ method: 'GET', path: '/api/push/public-key' }),
  subscribe: route<PushSubscriptionView>()({
    method: 'POST',
    path: '/api/push/subscriptions',
    body: PushSubscriptionSchema,
  }),
  unsubscribe: route<PushSubscriptionView>()({
    method: 'DELETE',
    path: '/api/push/subscriptions',
    body: PushUnsubscribeSchema,
  }),
};
