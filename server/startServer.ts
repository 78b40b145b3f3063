import http from 'node:http';
import type https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { setupWorker } from '@socket.io/sticky';
import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { createClient } from 'redis';
import { announceCompetitionOpened, startEndingSoonJob } from '../api/accounts/marketing/campaigns';
import { setPasswordHashCost } from '../api/accounts/passwords';
import {
  backfillMailboxKeys,
  mailboxKeyer,
  purgeEndedExclusions,
} from '../api/accounts/protection/exclusionRegister';
import { startPushNotifications } from '../api/accounts/push/notifications';
import { createPushSender } from '../api/accounts/push/sender';
import { loadVapidKeys } from '../api/accounts/push/vapidKeys';
import { createApp } from '../api/app';
import { purgeStaleSkillAttempts } from '../api/catalogue/skill/attempts';
import { createDrawBeacon } from '../api/draws/beacon/drawBeacon';
import { startDrawJob } from '../api/draws/closingJob';
import { markWinnerNotified, WINNER } from '../api/draws/drawEmails';
import { startBulkRefundWorker } from '../api/orders/bulkRefund/worker';
import { markConfirmationSent, ORDER_CONFIRMATION } from '../api/orders/orderEmails';
import { reconcilerDepsOf, startPaymentReconciler } from '../api/orders/paymentReconciler';
import { createGateway, type PaymentGateway } from '../api/payments';
import type { Config } from '../api/platform/config';
import type { AppDeps } from '../api/platform/context';
import { EMAIL_TEMPLATES } from '../api/platform/email/registry';
import { EventBus } from '../api/platform/events';
import { FaultInjector } from '../api/platform/faults';
import { createMailer } from '../api/platform/mailer';
import { createMetrics } from '../api/platform/observability/metrics';
import { loggerWithRequestIds } from '../api/platform/observability/requestContext';
import { createRateLimits } from '../api/platform/rateLimits';
import { startNumberAlerts } from '../api/tickets/alerts/freedNumbers';
import { startSweeper } from '../api/tickets/expirySweeper';
import { startLaunchQueueJob } from '../api/tickets/queue/admission';
import { ERROR_CODES } from '../contract/errors';
import { migrateLatest, openDatabase } from '../db/connection';
import { engineOf } from '../knexfile';
import { attachRealtime, attachRedisAdapter, type RealtimeServer } from '../realtime/server';
import type { TicketBatcher } from '../realtime/ticketBatches';
import { workerExposition } from './cluster';
import { QUIET_BEFORE_CLOSE_MS, RequestDrain } from './requestDrain';
import { DEMO_CUSTOMER } from './seeds/demo';
import { seedOnStart } from './seeds/firstStart';

const KEEP_ALIVE_MS = 65_000;

export interface RunningServer {
  url: string;
  port: number;
  deps: AppDeps;
  gateway: PaymentGateway;
  io: RealtimeServer;
  /** The ticket changes' burst coalescing (realtime/ticketBatches.ts); tests ask whether a burst is on. */
  ticketBatcher: TicketBatcher;
  /**
   * Stops gracefully (SIGTERM, docs/operations.md#restarts): stops accepting connections, closes
   * every socket so its client reconnects (to another process), lets the requests in flight finish
   * for up to `graceMs` (default SHUTDOWN_GRACE_MS), stops the jobs and waits for their runs, then
   * closes Socket.IO, Redis and the pool. Resolves to whether every request finished in time.
   */
  close: (graceMs?: number) => Promise<boolean>;
}

export interface StartOptions {
  webRoot?: string;
  logger?: Logger;
  /** Use this database instead of opening one from the config (tests). */
  db?: Knex;
  /**
   * A cluster worker (server/cluster.ts): the primary owns the port and hands each connection
   * over, so this process does not listen itself.
   */
  clusterWorker?: boolean;
  /**
   * The agent web push sends with (tests: one trusting the local push service's self-signed
   * certificate; NODE_EXTRA_CA_CERTS is read only when a process starts, before the test made it).
   */
  pushAgent?: https.Agent;
}

/** Migrates, seeds on first start (when enabled), and serves site + API + Socket.IO on one port. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Every line logged while a request is served carries its id (api/platform/requestContext.ts).
  const logger = loggerWithRequestIds(options.logger ?? pino({ level: config.logLevel }));
  const db = options.db ?? openDatabase(config);
  await migrateLatest(db, {
    onStaleLock: () => logger.warn('reset a migration lock left by a process that stopped mid-migration'),
  });
  setPasswordHashCost(config.passwordHashCost);
  await seedOnStart(db, config, logger);
  // Accounts made before migration 027 (and seeded ones) get the key the exclusion register matches.
  const keyed = await backfillMailboxKeys(db, mailboxKeyer(config.exclusionKey));
  if (keyed) logger.info({ keyed }, 'gave accounts their mailbox keys');
  const { deps, gateway, limitsRedis } = await buildDeps(config, db, logger, options);
  const { events } = deps;
  const { app, sessionStore, keys } = createApp(deps, { gateway, webRoot: options.webRoot });
  const requests = new RequestDrain();
  const server = createHttpServer(requests, app.callback());
  const { io, batcher } = attachRealtime(server, {
    sessionStore,
    keys,
    logger,
    events,
    db,
    origins: { publicUrl: config.publicUrl, allowedOrigins: config.allowedOrigins },
    fastPaths: config.fastPaths,
    socketLimits: config.socketLimits,
    adminPolicy: config,
    metrics: deps.metrics,
  });
  const closeRedis = config.redisUrl
    ? await attachRedisAdapter(io, config.redisUrl, config.redisPrefix)
    : async () => undefined;
  const { stopSweeper, stopDrawJob, stopQueueJob, stopReconciler, stopMarketing, stopRefunds } = startJobs(
    deps,
    gateway,
  );
  const stopPush = await startPush(deps, options.pushAgent);
  // Owed e-mails: a pass at once (what a crashed process left), then every OUTBOX_INTERVAL_MS.
  deps.mailer.outbox.start(config.outbox.intervalMs);
  const port = await serve(server, io, config, options);
  return {
    url: `http://localhost:${port}`,
    port,
    deps,
    gateway,
    io,
    ticketBatcher: batcher,
    close: async (graceMs = config.shutdownGraceMs) => {
      // Stop listening, but unlike http's close() leave kept-alive connections open: a request
      // already on its way down one then gets the drain's retryable 503, not a reset connection.
      const stopListening = new Promise<void>((resolve) =>
        net.Server.prototype.close.call(server, () => resolve()),
      );
      // Every socket's transport is closed (not a Socket.IO disconnect, which clients take as
      // final), so the clients reconnect, through the proxy, to a process that is still up.
      for (const socket of io.sockets.sockets.values()) socket.conn.close();
      const stoppingJobs = [
        stopSweeper(),
        stopDrawJob(),
        stopQueueJob(),
        stopReconciler(),
        stopMarketing(),
        stopRefunds(),
        stopPush(),
      ];
      const finished = await requests.drain(graceMs);
      if (!finished) {
        logger.warn(
          { unfinished: requests.inFlight, graceMs },
          'shutdown grace ran out: cutting the requests still in flight (the reconciler settles their payments)',
        );
      } else {
        // A request sent on an idle kept-alive connection just now gets the 503, not a reset.
        await requests.quiet(QUIET_BEFORE_CLOSE_MS, 3 * QUIET_BEFORE_CLOSE_MS);
      }
      server.closeAllConnections();
      await Promise.all(stoppingJobs);
      // After the last requests and jobs: the e-mails they owed are sent before the pool closes.
      await deps.mailer.outbox.stop();
      // Events published by the last requests have gone out (through Redis to the other processes).
      events.close();
      await io.close();
      // A WebSocket whose client never answers the close is not waited on for long.
      await Promise.race([stopListening, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      await closeRedis();
      await limitsRedis?.close();
      if (!options.db) await db.destroy();
      return finished;
    },
  };
}

/**
 * Everything the app's parts share, built once here and handed to the parts that use it; and the
 * payment gateway and the rate limits' Redis client, which the server closes.
 */
async function buildDeps(config: Config, db: Knex, logger: Logger, options: StartOptions) {
  const events = new EventBus();
  const faults = new FaultInjector(config.faultPlan);
  const metrics = createMetrics(db);
  const mailer = createMailer(config, db, logger, {
    templates: EMAIL_TEMPLATES,
    faults,
    countOutbox: (result) => metrics.mailOutboxSends.inc({ result }),
  });
  // A sent e-mail marks its domain's record in the same transaction as its outbox row.
  mailer.outbox.onSent(ORDER_CONFIRMATION, markConfirmationSent);
  mailer.outbox.onSent(WINNER, markWinnerNotified);
  const gateway = createGateway(config, db);
  // Rate-limit counters are shared through Redis when several processes run (docs/security.md).
  const limitsRedis = config.redisUrl ? createClient({ url: config.redisUrl }) : undefined;
  await limitsRedis?.connect();
  const rateLimits = createRateLimits({
    enabled: config.rateLimits,
    redis: limitsRedis,
    prefix: config.redisPrefix,
  });
  // A scrape answered by one worker reports them all.
  if (options.clusterWorker) metrics.exposition = workerExposition(metrics.registry);
  const deps: AppDeps = {
    config,
    db,
    engine: engineOf(config.databaseUrl),
    logger,
    events,
    mailer,
    rateLimits,
    faults,
    // The randomness draws wait for (docs/draws.md); the local test beacon keeps its key in DATA_DIR.
    drawBeacon: createDrawBeacon(config),
    metrics,
    pingRedis: limitsRedis ? () => limitsRedis.ping() : undefined,
  };
  if (deps.drawBeacon.local)
    logger.info(
      { chain: deps.drawBeacon.local.info.hash },
      'draws use the local test beacon (not independent), served at /api/draw-beacon',
    );
  if (deps.faults.armed)
    logger.warn(
      { faults: [...config.faultPlan] },
      'FAULT_INJECTION is set: this process will crash on purpose',
    );
  return { deps, gateway, limitsRedis };
}

/** The HTTP server, its requests counted by `requests` for the drain at shutdown. */
function createHttpServer(requests: RequestDrain, handler: http.RequestListener): http.Server {
  const server = http.createServer(requests.wrap(handler));
  requests.watch(server);
  // Idle kept-alive connections are closed by the client side (browser, proxy) first, never by us:
  // a request a client sends just as we close one is lost with a reset (Node's default is 5 s).
  // docs/operations.md: the proxy's upstream keep-alive stays below this.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  answerClientErrors(server);
  return server;
}

const ENDING_SOON_CHECK_MS = 30_000;
const LAUNCH_QUEUE_TICK_MS = 1000;

/** The background jobs, each with the function that stops it. */
function startJobs(deps: AppDeps, gateway: PaymentGateway) {
  const { config, db, events, logger, mailer } = deps;
  const stopSweeper = startSweeper(
    { db, events, ttlSeconds: config.reservationTtlSeconds },
    logger,
    config.sweepIntervalMs,
    [
      { name: 'stale skill attempts', run: purgeStaleSkillAttempts },
      { name: 'ended exclusion register entries', run: purgeEndedExclusions },
    ],
  );
  // Numbers released: the visitors waiting on them are told (ends with the event bus at shutdown).
  startNumberAlerts({ db, events, logger });
  // Closing at the end date and automatic draws, on the sweeper's interval (0 turns both off).
  const stopDrawJob = startDrawJob(
    { db, events, logger, mailer, beacon: deps.drawBeacon, faults: deps.faults },
    config.drawAutoAfterSeconds,
    config.sweepIntervalMs,
  );
  // Launch queues (docs/draws.md#launch-queue): the shuffle and admissions every second.
  const stopQueueJob = startLaunchQueueJob(
    { db, events, logger, settings: config.launchQueue },
    config.sweepIntervalMs ? LAUNCH_QUEUE_TICK_MS : 0,
  );
  // Captured payments left unsettled by a crash or a lost webhook: at start-up, then on a timer.
  const stopReconciler = startPaymentReconciler(reconcilerDepsOf(deps, gateway), config.reconcile.intervalMs);
  // The minimum-sales rule at end dates and cancelled competitions' bulk refunds: at start-up (a
  // refund a crash interrupted resumes), on the sweeper's interval, and when an admin cancels.
  const stopRefunds = startBulkRefundWorker(
    { db, events, logger, mailer, gateway, faults: deps.faults },
    config.sweepIntervalMs,
  );
  // Marketing (docs/emails.md#marketing-e-mails): 'new competition live' when one opens, and the
  // ending-soon check every 30 s so each notice goes within a minute of its moment (off with the sweeper).
  const stopEndingSoon = startEndingSoonJob(deps, config.sweepIntervalMs ? ENDING_SOON_CHECK_MS : 0);
  const announcing = new Set<Promise<unknown>>();
  const unsubscribeOpened = events.subscribe('competition.opened', ({ competitionId }) => {
    const run = announceCompetitionOpened(deps, competitionId)
      .catch((err) =>
        logger.error({ err, competitionId }, "the 'new competition live' e-mails were not owed"),
      )
      .finally(() => announcing.delete(run));
    announcing.add(run);
  });
  // At shutdown: no new announcements, and those under way finish before the pool closes.
  const stopMarketing = async () => {
    unsubscribeOpened();
    await Promise.all([stopEndingSoon(), ...announcing]);
  };
  return { stopSweeper, stopDrawJob, stopQueueJob, stopReconciler, stopMarketing, stopRefunds };
}

/**
 * Web push (docs/product.md#web-push): the VAPID key (made and stored on first start when not
 * configured), and the notifications sent after COMMIT. Returns the stop.
 */
async function startPush(deps: AppDeps, agent: https.Agent | undefined) {
  const { config, db, events, logger } = deps;
  const keys = await loadVapidKeys(db, config.sessionSecret, config.push.vapid);
  const sender = createPushSender({
    db,
    logger,
    keys,
    subject: `mailto:${config.supportEmail}`,
    allowPrivateEndpoints: config.push.allowPrivateEndpoints,
    agent,
  });
  return startPushNotifications({ db, events, logger, sender });
}

/** Listens on the configured port and answers the port it got; a cluster worker is handed connections. */
async function serve(server: http.Server, io: RealtimeServer, config: Config, options: StartOptions) {
  if (options.clusterWorker) {
    // Connections arrive from the primary; a polling session's requests keep to this worker.
    setupWorker(io);
    return config.port;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  return (server.address() as AddressInfo).port;
}

export { DEMO_CUSTOMER };

/**
 * Node refuses some requests before Koa sees them (headers over its limit, malformed HTTP) and by
 * default answers them with an empty body. Answer those with the JSON error shape too, so every
 * client, the site's own included, can read why.
 */
function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, message] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers or address are too long.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request took too long to arrive.']
          : [400, 'The request is not valid HTTP.'];
    const body = JSON.stringify({ message, code: ERROR_CODES.badRequest });
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
