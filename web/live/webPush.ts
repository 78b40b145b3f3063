import type { PUSH_ROUTES } from '../../contract/apiPush';
import { call } from '../api/call';

// Web push in the browser (docs/product.md#web-push): asked for only after an action (a purchase),
// never on page load. The subscription is made by the service worker's PushManager with the
// site's VAPID key and sent to the server, which pushes the draw result to it.

/** Whether this browser can take web push, and the customer has not refused it. */
export function pushAvailable(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window &&
    Notification.permission !== 'denied'
  );
}

/** Whether this browser already has a subscription (nothing to ask then). */
export async function pushSubscribed(): Promise<boolean> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return Boolean(await registration?.pushManager.getSubscription());
}

const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
};

/**
 * Asks for permission (from the click that called it), subscribes through the service worker and
 * stores the subscription on the server. Resolves false when the customer said no.
 */
export async function subscribeToPush(): Promise<boolean> {
  if ((await Notification.requestPermission()) !== 'granted') return false;
  const registration =
    (await navigator.serviceWorker.getRegistration('/')) ??
    (await navigator.serviceWorker.register('/sw.js', { scope: '/' }));
  await navigator.serviceWorker.ready;
  const { publicKey } = await call<typeof PUSH_ROUTES.publicKey>({
    method: 'GET',
    path: '/api/push/public-key',
  });
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  const json = subscription.toJSON();
  await call<typeof PUSH_ROUTES.subscribe>(
    { method: 'POST', path: '/api/push/subscriptions' },
    {
      body: {
        endpoint: json.endpoint ?? subscription.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      },
    },
  );
  return true;
}
