import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { ERROR_CODES } from '../../contract/errors';
import { HttpError } from './errors';

// Request-rate limits (docs/security.md), counted by rate-limiter-flexible: atomic counters in
// memory, or in Redis when REDIS_URL is set so every process shares them. RATE_LIMITS=off lets
// load through for benchmarks and load tools; it never turns off a guess limit (a spec marked
// `guesses`), nor caps, CSRF or Origin checks, which do not use this module.

// Any connected node-redis client (its generic parameters vary with its options).
type RedisClient = { isReady: boolean };

export interface LimitSpec {
  /** Unique per limit: the key prefix of its counters. */
  name: string;
  /** How many hits a key may make in `durationSeconds`. */
  points: number;
  durationSeconds: number;
  /** Once over the limit, the key is refused for this long (default: until the window ends). */
  blockSeconds?: number;
  /**
   * A limit on guessing a secret (a two-factor code, a promo code) or on sending e-mails to an
   * address: security, not load, so RATE_LIMITS=off leaves it on.
   */
  guesses?: true;
}

/** A 429 with Retry-After; `message` says what was limited, in words a customer understands. */
export function tooManyRequests(message: string, retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(
    429,
    ERROR_CODES.rateLimited,
    message,
    { retryAfterSeconds: seconds },
    {
      'Retry-After': String(seconds),
    },
  );
}

export interface Limiter {
  /** The underlying counter, for limits that need more than hit() (rewards, reads). */
  readonly raw: RateLimiterAbstract;
  /**
   * Counts `points` against `key`. Over the limit it throws the 429 that `message` describes
   * (given the seconds until the key may try again).
   */
  hit(key: string, message: (retryAfterSeconds: number) => string, points?: number): Promise<void>;
}

export interface RateLimits {
  readonly enabled: boolean;
  limiter(spec: LimitSpec): Limiter;
}

/** Whether an error from a limiter means "over the limit" (rather than a store failure). */
export const isOverLimit = (err: unknown): err is RateLimiterRes => err instanceof RateLimiterRes;

export function createRateLimits(options: {
  enabled: boolean;
  redis?: RedisClient | undefined;
  /** The site's key prefix in Redis (config.redisPrefix). */
  prefix?: string;
}): RateLimits {
  const build = (spec: LimitSpec): RateLimiterAbstract => {
    const opts = {
      keyPrefix: `${options.prefix ?? 'wcp'}:${spec.name}`,
      points: spec.points,
      duration: spec.durationSeconds,
      blockDuration: spec.blockSeconds ?? 0,
    };
    return options.redis
      ? new RateLimiterRedis({ ...opts, storeClient: options.redis, useRedisPackage: true })
      : new RateLimiterMemory(opts);
  };
  return {
    enabled: options.enabled,
    limiter(spec) {
      const raw = build(spec);
      const on = options.enabled || spec.guesses === true;
      return {
        raw,
        async hit(key, message, points = 1) {
          if (!on) return;
          try {
            await raw.consume(key, points);
          } catch (err) {
            if (!isOverLimit(err)) throw err;
            const seconds = Math.ceil(err.msBeforeNext / 1000);
            throw tooManyRequests(message(seconds), seconds);
          }
        },
      };
    },
  };
}
