import * as v from 'valibot';

// Web push (docs/product.md#web-push): the subscription a browser's PushManager makes, as the
// server stores it, and the notification the service worker (web/public/sw.js) shows.

/** An unpadded base64url string, as PushSubscription.toJSON() gives its keys. */
const base64url = (what: string, min: number, max: number) =>
  v.pipe(
    v.string(`${what} must be text`),
    v.regex(/^[A-Za-z0-9_-]+$/, `${what} must be base64url`),
    v.minLength(min, `${what} is too short`),
    v.maxLength(max, `${what} is too long`),
  );

const ENDPOINT_MESSAGE = 'The push endpoint must be an https:// address';

/** The push service's URL: https (http only for a loopback test service, which the server allows outside production). */
export const PushEndpointSchema = v.pipe(
  v.string(ENDPOINT_MESSAGE),
  v.trim(),
  v.maxLength(1000, 'The push endpoint is too long'),
  v.url(ENDPOINT_MESSAGE),
  v.regex(/^https:\/\//i, ENDPOINT_MESSAGE),
);

/** POST /api/push/subscriptions: PushSubscription.toJSON() (expirationTime is ignored). */
export const PushSubscriptionSchema = v.object({
  endpoint: PushEndpointSchema,
  keys: v.object(
    {
      // An uncompressed P-256 point (65 bytes: 87 characters) and a 16-byte secret (22 characters).
      p256dh: base64url('keys.p256dh', 87, 87),
      auth: base64url('keys.auth', 22, 22),
    },
    'keys must be { p256dh, auth }',
  ),
});
export type PushSubscriptionInput = v.InferOutput<typeof PushSubscriptionSchema>;

/** DELETE /api/push/subscriptions. */
export const PushUnsubscribeSchema = v.object({ endpoint: PushEndpointSchema });

export interface PushPublicKeyView {
  /** The VAPID public key (base64url), the applicationServerKey of pushManager.subscribe. */
  publicKey: string;
}

export interface PushSubscriptionView {
  subscribed: boolean;
}

/** What kind of notification (the service worker shows each the same way). */
export type PushKind = 'draw-result' | 'won' | 'ending-soon';

/** The encrypted payload: what the service worker shows, and the page a click opens. */
export interface PushPayload {
  kind: PushKind;
  title: string;
  body: string;
  /** Site-relative: `/competitions/<id>`. */
  url: string;
  competitionId: number;
}

/** The question asked after a purchase (never on page load). */
export const PUSH_ASK_TEXT = 'Get a notification when this is drawn?';
