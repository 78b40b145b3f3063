import { createHash } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import { type FaultPlan, parseFaultPlan } from '../faults';
import { DEFAULT_SESSION_SECRET, ENV_VARIABLES, type EnvValues } from './variables';

export { DEFAULT_SESSION_SECRET };

// The server's configuration: the variables of variables.ts, checked, then grouped as the
// code uses them. `Config` is derived from that grouping, so a variable has one declaration.

export class ConfigError extends Error {}

/** The hosted-page card provider's settings (api/payments/cashflows.ts signs its form). */
export interface CashflowsSettings {
  merchantId: string;
  signatureKey: string;
  testMode: boolean;
  redirectUrl?: string | undefined;
}

/**
 * The prefix of this site's keys and channels in Redis, from its database: a site's processes share
 * one database and no other site does, so two sites on one Redis (staging and production, or test
 * servers side by side) neither receive each other's ticket events nor share rate-limit counters.
 */
export function redisPrefixOf(databaseUrl: string | undefined, dataDir: string): string {
  let identity = `sqlite:${dataDir}`;
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    identity = `${url.hostname}:${url.port || 3306}${url.pathname}`;
  }
  return `wcp:${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}

const envSchema = v.object(
  Object.fromEntries(
    Object.entries(ENV_VARIABLES).map(([name, variable]) => [
      name,
      'default' in variable ? v.optional(variable.schema, variable.default) : v.optional(variable.schema),
    ]),
  ),
);

/** The checked values; throws ConfigError with every invalid one listed. */
function parseEnv(set: Record<string, string>): EnvValues {
  const result = v.safeParse(envSchema, set);
  if (!result.success) {
    const lines = result.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return result.output as EnvValues;
}

/** The first production rule of variables.ts that `set` breaks. */
function productionRefusal(set: Record<string, string>, e: EnvValues): string | undefined {
  for (const [name, variable] of Object.entries(ENV_VARIABLES)) {
    const rule = 'production' in variable ? variable.production : undefined;
    if (!rule) continue;
    const refused = {
      unset: set[name] === undefined,
      set: set[name] !== undefined,
      default: 'default' in variable && e[name as keyof EnvValues] === variable.default,
    }[rule.refuse];
    if (refused) return rule.message;
  }
  return undefined;
}

/** The rules between variables. */
function crossCheck(e: EnvValues): void {
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together.');
  }
  const production = e.NODE_ENV === 'production';
  if (production && !e.STRIPE_SECRET_KEY && e.PAYMENTS_SANDBOX !== '1') {
    throw new ConfigError(
      'Payments: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET when NODE_ENV=production, ' +
        'or PAYMENTS_SANDBOX=1 to run the test-card sandbox (no real money is taken).',
    );
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together.');
  }
  if (e.WEB_CONCURRENCY > 1 && (!e.REDIS_URL || !e.DATABASE_URL)) {
    throw new ConfigError(
      'WEB_CONCURRENCY above 1 needs REDIS_URL (Socket.IO broadcasts between the workers) and DATABASE_URL ' +
        '(MySQL/MariaDB: a SQLite file is for one process).',
    );
  }
  if (production && e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with Stripe when NODE_ENV=production.');
  }
  if (production && e.DRAW_BEACON === 'on-demand') {
    throw new ConfigError(
      'DRAW_BEACON=on-demand lets a draw produce its own beacon round and is refused when NODE_ENV=production.',
    );
  }
  if (production && e.PASSWORD_HASH_COST === 'test') {
    throw new ConfigError(
      'PASSWORD_HASH_COST=test makes password hashes cheap to guess and is refused when NODE_ENV=production.',
    );
  }
}

function faultPlanOf(spec: string | undefined): FaultPlan {
  try {
    return parseFaultPlan(spec ?? '');
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  FAULT_INJECTION: ${(err as Error).message}`);
  }
}

/** Where the site runs, who runs it, and its processes. */
const siteOf = (e: EnvValues) => {
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    /** This site's prefix for keys and channels in Redis (redisPrefixOf). */
    redisPrefix: redisPrefixOf(e.DATABASE_URL, dataDir),
    sessionSecret: e.SESSION_SECRET,
    siteName: e.SITE_NAME,
    supportEmail: e.SUPPORT_EMAIL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    /** docs/security.md#two-factor-sign-in: admins without two-factor sign-in reach only its setup. */
    adminRequire2fa:
      e.ADMIN_REQUIRE_2FA === undefined
        ? e.NODE_ENV === 'production'
        : e.ADMIN_REQUIRE_2FA === 'true' || e.ADMIN_REQUIRE_2FA === '1',
    /** What two-factor secrets are encrypted with (TWO_FACTOR_ENCRYPTION_KEY, else SESSION_SECRET). */
    twoFactorKey: e.TWO_FACTOR_ENCRYPTION_KEY ?? e.SESSION_SECRET,
    /** The HMAC key of the exclusion register's hashes (EXCLUSION_REGISTER_KEY, else SESSION_SECRET). */
    exclusionKey: e.EXCLUSION_REGISTER_KEY ?? e.SESSION_SECRET,
    smtpUrl: e.SMTP_URL,
    logLevel: e.LOG_LEVEL,
    seedDemoData: e.SEED_DEMO_DATA === '1',
    trustProxy: e.TRUST_PROXY === '1',
    /** SHUTDOWN_GRACE_MS (docs/operations.md#restarts): the drain's time limit on SIGTERM. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    /** WEB_CONCURRENCY: worker processes on one port; above 1 needs REDIS_URL and DATABASE_URL. */
    webConcurrency: e.WEB_CONCURRENCY,
    /** FAST_PATHS (fastpaths/README.md): the patches over knex, engine.io, socket.io-adapter and ws. */
    fastPaths: e.FAST_PATHS === 'on',
    /** The site's own origin (PUBLIC_URL); docs/security.md: socket handshakes are checked against it. */
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    /** ALLOWED_ORIGINS: further origins trusted like the site's own. */
    allowedOrigins: e.ALLOWED_ORIGINS,
    /** METRICS_TOKEN: the bearer token GET /metrics asks for; undefined turns the endpoint off. */
    metricsToken: e.METRICS_TOKEN,
    /** PASSWORD_HASH_COST: scrypt's parameters for new hashes ('test' is cheap and refused in production). */
    passwordHashCost: e.PASSWORD_HASH_COST,
  };
};

function cashflowsOf(e: EnvValues): CashflowsSettings | undefined {
  if (!e.CASHFLOWS_MERCHANT_ID || !e.CASHFLOWS_SIGNATURE_KEY) return undefined;
  return {
    merchantId: e.CASHFLOWS_MERCHANT_ID,
    signatureKey: e.CASHFLOWS_SIGNATURE_KEY,
    testMode: e.CASHFLOWS_TEST_MODE === '1',
    redirectUrl: e.CASHFLOWS_REDIRECT_URL,
  };
}

/** Holds, the card gateways and the credit cap. */
const paymentsOf = (e: EnvValues) => ({
  reservationTtlSeconds: e.RESERVATION_TTL_SECONDS,
  stripe: {
    secretKey: e.STRIPE_SECRET_KEY,
    publishableKey: e.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    apiUrl: e.STRIPE_API_URL,
  },
  payments: {
    /** 'stripe' when STRIPE_SECRET_KEY is set, otherwise the offline sandbox. */
    provider: e.STRIPE_SECRET_KEY ? ('stripe' as const) : ('sandbox' as const),
    windowSeconds: e.PAYMENT_WINDOW_SECONDS,
    /** Credit-funded card payments per player per UK calendar month, pence. */
    creditCardMonthlyCapPence: e.CREDIT_CARD_MONTHLY_CAP_PENCE,
    /** APPLE_PAY_DOMAIN_ASSOCIATION: the file Apple fetches to verify the domain; undefined answers 404. */
    applePayDomainAssociation: e.APPLE_PAY_DOMAIN_ASSOCIATION,
  },
  /** Set only when both the merchant id and the signature key are. */
  cashflows: cashflowsOf(e),
});

/** The limits of docs/security.md. */
const limitsOf = (e: EnvValues) => ({
  /** docs/security.md: request-rate limits; off only for benchmarks and load tools. */
  rateLimits: e.RATE_LIMITS === 'on',
  /** docs/security.md: failed sign-ins, counted before the password is checked. */
  loginLimits: {
    /** Guesses for one username from one address per window. */
    perUsernameAddress: e.LOGIN_LIMIT_PER_USERNAME_ADDRESS,
    /** Failed guesses from one address across every username per window. */
    perAddress: e.LOGIN_LIMIT_PER_ADDRESS,
    windowSeconds: e.LOGIN_WINDOW_SECONDS,
    /** Failures for one account (from anywhere) per account window before each guess is delayed. */
    accountFreeFailures: e.LOGIN_ACCOUNT_FREE_FAILURES,
    accountWindowSeconds: e.LOGIN_ACCOUNT_WINDOW_SECONDS,
    /** The growing delay between guesses at one account stops growing here. */
    accountMaxDelaySeconds: e.LOGIN_ACCOUNT_MAX_DELAY_SECONDS,
  },
  /** docs/security.md: new accounts per address. */
  registrationLimits: {
    perAddress: e.REGISTRATIONS_PER_ADDRESS,
    windowSeconds: e.REGISTRATION_WINDOW_SECONDS,
  },
  /** docs/security.md#account-e-mail-limits: reset and confirmation e-mails per address per hour. */
  accountEmailsPerAddress: e.ACCOUNT_EMAILS_PER_ADDRESS,
  /** docs/security.md#socket-limits: what one Socket.IO connection may do. */
  socketLimits: {
    eventBurst: e.SOCKET_EVENT_BURST,
    eventsPerSecond: e.SOCKET_EVENTS_PER_SECOND,
    maxRooms: e.SOCKET_MAX_ROOMS,
    maxPayloadBytes: e.SOCKET_MAX_PAYLOAD_BYTES,
    strikes: e.SOCKET_STRIKES,
  },
  /** Holds per minute, per session and per address (docs/security.md). */
  holdRate: { perSession: e.HOLD_RATE_PER_SESSION, perAddress: e.HOLD_RATE_PER_ADDRESS },
  /** SKILL_MAX_ATTEMPTS: wrong skill answers allowed per competition and person in 24 hours. */
  skillMaxAttempts: e.SKILL_MAX_ATTEMPTS,
});

/** The background jobs: the sweeper, the reconciler, draws and their beacon. */
const jobsOf = (e: EnvValues) => ({
  sweepIntervalMs: e.SWEEP_INTERVAL_MS,
  /** The payment reconciler (api/orders/paymentReconciler.ts): its interval (0 = start-up only) and grace. */
  reconcile: { intervalMs: e.RECONCILE_INTERVAL_MS, graceSeconds: e.RECONCILE_GRACE_SECONDS },
  /** docs/draws.md: seconds after a live-draw competition's end date before it is drawn automatically; 0 never. */
  drawAutoAfterSeconds: e.DRAW_AUTO_AFTER_SECONDS,
  /** docs/draws.md#launch-queue: joining window, places per address, default rate, admission time. */
  launchQueue: {
    opensMinutes: e.LAUNCH_QUEUE_OPENS_MINUTES,
    perAddress: e.LAUNCH_QUEUE_PER_ADDRESS,
    admitPerSecond: e.LAUNCH_ADMIT_PER_SECOND,
    admissionMinutes: e.LAUNCH_ADMISSION_MINUTES,
  },
  /** docs/emails.md#the-outbox: the outbox worker's interval (0 = no timer), tries, backoff and lease. */
  outbox: {
    intervalMs: e.OUTBOX_INTERVAL_MS,
    maxAttempts: e.OUTBOX_MAX_ATTEMPTS,
    retryBaseMs: e.OUTBOX_RETRY_BASE_MS,
    leaseMs: e.OUTBOX_LEASE_SECONDS * 1000,
  },
  /**
   * docs/product.md#web-push: the VAPID key pair when set (else made on first start and stored),
   * and whether a subscription may name a loopback or private address (never in production: SSRF).
   */
  push: {
    vapid:
      e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
        ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
        : undefined,
    allowPrivateEndpoints: e.NODE_ENV !== 'production',
  },
  /** docs/emails.md#marketing-e-mails: the ending-soon notice and each customer's daily allowance. */
  marketing: {
    endingSoonNoticeMs: e.ENDING_SOON_NOTICE_MINUTES * 60_000,
    emailsPerDay: e.MARKETING_EMAILS_PER_DAY,
  },
  /** docs/draws.md "Version 2": the randomness beacon draws wait for. */
  drawBeacon: {
    /**
     * 'drand' (quicknet; the default in production), 'local' (a test beacon, labelled as such) or
     * 'on-demand' (the test beacon producing a round as soon as a draw asks; tests only).
     */
    kind: e.DRAW_BEACON ?? (e.NODE_ENV === 'production' ? ('drand' as const) : ('local' as const)),
    /** The chain URL; unset with a test beacon: it runs in this process, served under /api/draw-beacon. */
    url: e.DRAW_BEACON_URL?.replace(/\/+$/, ''),
    delaySeconds: e.DRAW_BEACON_DELAY_SECONDS,
    /** The local beacon's period in seconds. */
    periodSeconds: e.DRAW_BEACON_PERIOD_SECONDS,
  },
});

const configOf = (e: EnvValues, faultPlan: FaultPlan) => ({
  ...siteOf(e),
  ...paymentsOf(e),
  ...limitsOf(e),
  ...jobsOf(e),
  /** FAULT_INJECTION: where the process kills itself (tests only; empty when unset). */
  faultPlan,
});

export type Config = ReturnType<typeof configOf>;
export type LoginLimitSettings = Config['loginLimits'];
export type RegistrationLimitSettings = Config['registrationLimits'];

/** Reads and checks the environment; throws ConfigError with every problem listed. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset, as shells and compose files often pass them.
  const set = Object.fromEntries(
    Object.entries(env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  const e = parseEnv(set);
  const refusal = e.NODE_ENV === 'production' ? productionRefusal(set, e) : undefined;
  if (refusal) throw new ConfigError(refusal);
  const faultPlan = faultPlanOf(e.FAULT_INJECTION);
  crossCheck(e);
  return configOf(e, faultPlan);
}
