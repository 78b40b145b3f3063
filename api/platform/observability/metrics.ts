import type { Knex } from 'knex';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The operators' metrics (docs/operations.md#metrics), served by GET /metrics. One registry per
 * running app, never prom-client's global one, so tests can run several servers in one process.
 * Every update is a synchronous counter bump: nothing on a request's path awaits a metric.
 */
export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<'route' | 'method' | 'status'>;
  realtimeEmitted: Counter<'event'>;
  ticketHolds: Counter<'result'>;
  payments: Counter<'provider' | 'result'>;
  reconcilerSettled: Counter<'outcome'>;
  /** Tries of owed e-mails (api/platform/outbox/): sent, retry, failed. */
  mailOutboxSends: Counter<'result'>;
  /** Tells the socket gauge how to count this process's sockets (set once Socket.IO is attached). */
  countSocketsWith: (count: () => number) => void;
  /** Socket.IO connections open on this process now (0 before Socket.IO is attached). */
  socketsConnected: () => number;
  /**
   * The Prometheus text GET /metrics answers: this registry's, or in a WEB_CONCURRENCY worker
   * every worker's, summed by the primary (server/cluster.ts).
   */
  exposition: () => Promise<string>;
}

/** The outcomes of a hold request the ticket_holds_total counter tells apart. */
export type HoldResult = 'ok' | 'conflict' | 'capped' | 'limited';

/** knex's pool (tarn.js); only what the gauges read. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

const poolOf = (db: Knex): TarnPool | undefined =>
  (db.client as { pool?: TarnPool | null }).pool ?? undefined;

export function createMetrics(db: Knex): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  let countSockets = () => 0;
  new Gauge({
    name: 'socketio_connected_sockets',
    help: 'Socket.IO connections open on this process.',
    registers,
    collect() {
      this.set(countSockets());
    },
  });
  // Read when scraped, so the pool is never touched on a query's path.
  const poolGauge = (name: string, help: string, read: (pool: TarnPool) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const pool = poolOf(db);
        this.set(pool ? read(pool) : 0);
      },
    });
  poolGauge('db_pool_connections_in_use', 'Database connections lent out by the knex pool.', (p) =>
    p.numUsed(),
  );
  poolGauge('db_pool_connections_idle', 'Database connections idle in the knex pool.', (p) => p.numFree());
  poolGauge('db_pool_pending_acquires', 'Queries waiting for a database connection from the pool.', (p) =>
    p.numPendingAcquires(),
  );

  // Owed e-mails given up on: the database's figure, the same from every process (hence 'max'
  // when a cluster primary adds the workers up). Read when scraped.
  new Gauge({
    name: 'mail_outbox_failed',
    help: 'Owed e-mails marked failed after their last try (mail_outbox), waiting for an operator.',
    registers,
    aggregator: 'max',
    async collect() {
      try {
        const row = await db('mailOutbox').where('status', 'failed').count({ n: '*' }).first();
        this.set(Number(row?.n ?? 0));
      } catch {
        // The database is down: /api/ready says so; the scrape still answers.
      }
    },
  });

  return {
    registry,
    exposition: () => registry.metrics(),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'API request duration by route template (never the raw URL), method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    realtimeEmitted: new Counter({
      name: 'realtime_events_emitted_total',
      help: 'Socket.IO events emitted by this process (one per broadcast, not per receiving socket).',
      labelNames: ['event'],
      registers,
    }),
    ticketHolds: new Counter({
      name: 'ticket_holds_total',
      help: 'Hold requests (POST /api/cart, PATCH /api/cart/:id) by result: ok, conflict, capped, limited.',
      labelNames: ['result'],
      registers,
    }),
    payments: new Counter({
      name: 'payments_total',
      help: 'Payment reports settled by fulfilment, and card failures, by provider and result.',
      labelNames: ['provider', 'result'],
      registers,
    }),
    reconcilerSettled: new Counter({
      name: 'reconciler_settled_total',
      help: 'Captured payments the reconciler settled, by outcome.',
      labelNames: ['outcome'],
      registers,
    }),
    mailOutboxSends: new Counter({
      name: 'mail_outbox_sends_total',
      help: 'Tries of owed e-mails by result: sent, retry (tried again later), failed (given up).',
      labelNames: ['result'],
      registers,
    }),
    countSocketsWith: (count) => {
      countSockets = count;
    },
    socketsConnected: () => countSockets(),
  };
}
