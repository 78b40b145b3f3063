import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { PushSubscriptionInput } from '../../../contract/push';
import { badRequest } from '../../platform/errors';
import { type BreakColumns, breakColumns, breakEndOf } from '../../platform/personBreak';
import { isPublicEndpoint } from './endpoints';

// A customer's browsers (docs/product.md#web-push): one row per endpoint, which identifies the
// browser's subscription; a second sign-in on the same browser moves it to the new account.

/** How many browsers one customer may have subscribed at once. */
export const MAX_SUBSCRIPTIONS_PER_CUSTOMER = 10;

export const PRIVATE_ENDPOINT_MESSAGE = 'The push endpoint must be a public address.';

/** The endpoint's key in the unique index (endpoints are too long to index whole on MariaDB). */
const hashOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

export interface StoredSubscription {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Stores (or takes over) the browser's subscription for this customer. In production an endpoint
 * on a loopback or private address is refused with 400 (SSRF, docs/security.md#web-push-endpoints).
 */
export async function subscribe(
  db: Knex,
  userId: number,
  { endpoint, keys }: PushSubscriptionInput,
  { allowPrivateEndpoints }: { allowPrivateEndpoints: boolean },
  now = Date.now(),
): Promise<void> {
  if (!allowPrivateEndpoints && !(await isPublicEndpoint(endpoint)))
    throw badRequest(PRIVATE_ENDPOINT_MESSAGE);
  const row = { userId, endpoint, p256dh: keys.p256dh, auth: keys.auth };
  await db('pushSubscriptions')
    .insert({ ...row, endpointHash: hashOf(endpoint), createdAt: now })
    .onConflict('endpointHash')
    .merge(row);
  // A customer has a handful of browsers; past the cap the oldest goes, so one account cannot
  // have the server post to endless endpoints.
  const stale = (await db('pushSubscriptions')
    .where({ userId })
    .orderBy('id', 'desc')
    .offset(MAX_SUBSCRIPTIONS_PER_CUSTOMER)
    .limit(1000)
    .select('id')) as Array<{ id: number }>;
  if (stale.length)
    await db('pushSubscriptions')
      .whereIn(
        'id',
        stale.map((r) => r.id),
      )
      .delete();
}

/** Removes this customer's subscription of that endpoint (another customer's is left alone). */
export async function unsubscribe(db: Knex, userId: number, endpoint: string): Promise<void> {
  await db('pushSubscriptions')
    .where({ endpointHash: hashOf(endpoint), userId })
    .delete();
}

/** The push service said the subscription is gone (404 or 410): forget it. */
export async function forgetSubscription(db: Knex, id: number): Promise<void> {
  await db('pushSubscriptions').where({ id }).delete();
}

/**
 * The subscriptions of these accounts that may be pushed to now: live accounts, no break running
 * (self-exclusion or the exclusion register: api/platform/personBreak.ts).
 */
export async function subscriptionsOf(
  db: Knex,
  userIds: number[],
  now: number,
): Promise<StoredSubscription[]> {
  if (!userIds.length) return [];
  const rows = (await db('pushSubscriptions')
    .join('users', 'users.id', 'pushSubscriptions.userId')
    .whereIn('pushSubscriptions.userId', userIds)
    .whereNull('users.deletedAt')
    .orderBy('pushSubscriptions.id')
    .select(
      'pushSubscriptions.id',
      'pushSubscriptions.userId',
      'pushSubscriptions.endpoint',
      'pushSubscriptions.p256dh',
      'pushSubscriptions.auth',
      ...breakColumns(db),
    )) as Array<StoredSubscription & BreakColumns>;
  return rows
    .filter((r) => breakEndOf(r) <= now)
    .map((r) => ({
      id: Number(r.id),
      userId: Number(r.userId),
      endpoint: r.endpoint,
      p256dh: r.p256dh,
      auth: r.auth,
    }));
}
