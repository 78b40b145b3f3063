import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Engine } from '../../knexfile';
import type { Config } from './config';
import type { EventBus } from './events';
import type { FaultInjector } from './faults';
import type { Mailer } from './mailer';
import type { Metrics } from './observability/metrics';
import type { RateLimits } from './rateLimits';

/** What routes and services need from the running app; built once by server/startServer.ts. */
export interface AppDeps {
  config: Config;
  db: Knex;
  engine: Engine;
  logger: Logger;
  events: EventBus;
  mailer: Mailer;
  rateLimits: RateLimits;
  /** FAULT_INJECTION's crash points (none armed unless set; tests only). */
  faults: FaultInjector;
  /** The operators' metrics (GET /metrics, docs/operations.md#metrics). */
  metrics: Metrics;
  /** Answers when Redis (REDIS_URL) does; undefined without Redis. For GET /api/ready. */
  pingRedis?: (() => Promise<unknown>) | undefined;
}
