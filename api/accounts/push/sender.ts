import https from 'node:https';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { PushPayload } from '../../../contract/push';
import { publicOnlyLookup } from './endpoints';
import { forgetSubscription, type StoredSubscription, subscriptionsOf } from './subscriptions';
import type { VapidKeys } from './vapidKeys';

// Sends web push notifications (RFC 8030) with the `web-push` package: the payload encrypted to
// each subscription's keys (RFC 8291, aes128gcm) and signed with the site's VAPID key (RFC 8292).
// Called only from after-COMMIT event handlers (notifications.ts), never inside a transaction.

export interface PushSenderOptions {
  db: Knex;
  logger: Logger;
  keys: VapidKeys;
  /** The VAPID `sub` claim: how the push service reaches the site's operator. */
  subject: string;
  /** Outside production, loopback and private endpoints are allowed (a local test push service). */
  allowPrivateEndpoints: boolean;
  /** The HTTPS agent to send with (tests: one that trusts the local push service's certificate). */
  agent?: https.Agent;
}

export interface PushReport {
  sent: number;
  /** Subscriptions the push service said are gone (404, 410): deleted. */
  removed: number;
  failed: number;
}

export interface PushSender {
  publicKey: string;
  /** Pushes `payload` to every browser of these accounts that may be reached now (no break). */
  send(userIds: number[], payload: PushPayload, ttlSeconds: number): Promise<PushReport>;
  /** Shutdown: the sends under way finish, no further one starts. */
  close(): void;
}

const SEND_TIMEOUT_MS = 10_000;
/** Accounts pushed to at once: a draw with thousands of entrants does not go one by one. */
const CONCURRENT_ACCOUNTS = 8;

export function createPushSender(options: PushSenderOptions): PushSender {
  const { db, logger, keys, subject } = options;
  // In production the connection itself refuses a private address (docs/security.md#web-push-endpoints).
  const agent =
    options.agent ??
    new https.Agent({
      keepAlive: true,
      ...(options.allowPrivateEndpoints ? {} : { lookup: publicOnlyLookup as never }),
    });
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  let closed = false;

  const sendOne = async (s: StoredSubscription, body: string, ttlSeconds: number, report: PushReport) => {
    try {
      await webpush.sendNotification(
        { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
        body,
        {
          vapidDetails,
          TTL: ttlSeconds,
          contentEncoding: 'aes128gcm',
          agent,
          timeout: SEND_TIMEOUT_MS,
        },
      );
      report.sent++;
    } catch (err) {
      if (err instanceof webpush.WebPushError && (err.statusCode === 404 || err.statusCode === 410)) {
        await forgetSubscription(db, s.id);
        report.removed++;
      } else {
        report.failed++;
        const status = err instanceof webpush.WebPushError ? err.statusCode : undefined;
        logger.warn({ err, status, subscriptionId: s.id }, 'web push not delivered');
      }
    }
  };

  return {
    publicKey: keys.publicKey,
    close: () => {
      closed = true;
    },
    async send(userIds, payload, ttlSeconds) {
      const report: PushReport = { sent: 0, removed: 0, failed: 0 };
      if (closed) return report;
      const subscriptions = await subscriptionsOf(db, [...new Set(userIds)], Date.now());
      const body = JSON.stringify(payload);
      // One account's browsers in order (oldest first), several accounts at once.
      const byAccount = new Map<number, StoredSubscription[]>();
      for (const s of subscriptions) byAccount.set(s.userId, [...(byAccount.get(s.userId) ?? []), s]);
      const queue = [...byAccount.values()];
      const worker = async () => {
        for (let next = queue.shift(); next && !closed; next = queue.shift())
          for (const s of next) await sendOne(s, body, ttlSeconds, report);
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENT_ACCOUNTS, queue.length) }, worker));
      return report;
    },
  };
}
