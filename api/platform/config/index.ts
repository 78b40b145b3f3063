import { createHash } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import { type FaultPlan, parseFaultPlan } from './faults';

/** The session secret used when SESSION_SECRET is unset: fine on a laptop, refused in production. */
export const DEFAULT_SESSION_SECRET = 'insecure-development-session-secret-change-me';

const intFromEnv = (fallback: number, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.minValue(min),
      v.maxValue(max),
    ),
    String(fallback),
  );

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)));

const HTTP_URL = /^https?:\/\/[^/]/;
/** An http(s) URL, kept as its origin (scheme, host, port): what a browser sends in `Origin`. */
const originOf = (what: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.url(`${what} must be a URL`),
    v.regex(HTTP_URL, `${what} must be an http(s) URL`),
    v.transform((url) => new URL(url).origin),
  );

// Every variable documented in README.md "Configuration".
const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  PORT: intFromEnv(3000, 0, 65535),
  HOST: v.optional(v.string(), '0.0.0.0'),
  DATA_DIR: v.optional(v.string(), 'data'),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  SESSION_SECRET: v.optional(
    v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters')),
    DEFAULT_SESSION_SECRET,
  ),
  SITE_NAME: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)), 'Westcountry Prizes'),
  SUPPORT_EMAIL: v.optional(v.pipe(v.string(), v.email()), 'support@westcountryprizes.co.uk'),
  ADMIN_USERNAME: v.optional(v.pipe(v.string(), v.minLength(3)), 'admin'),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(6)), 'admin123'),
  /** Admins must turn on two-factor sign-in before using the back office (default: on in production). */
  ADMIN_REQUIRE_2FA: v.optional(v.picklist(['true', 'false', '1', '0'])),
  /** Key material for encrypting two-factor secrets at rest (default: derived from SESSION_SECRET). */
  TWO_FACTOR_ENCRYPTION_KEY: v.optional(
    v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters')),
  ),
  RESERVATION_TTL_SECONDS: intFromEnv(600, 10, 86_400),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  /** Where the Stripe SDK sends API calls (default Stripe's own; a local Stripe-compatible server in tests). */
  STRIPE_API_URL: v.optional(
    v.pipe(v.string(), v.trim(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL')),
  ),
  /** Allows the offline sandbox gateway (test cards, no real money) when NODE_ENV=production. */
  PAYMENTS_SANDBOX: v.optional(v.picklist(['0', '1']), '0'),
  /** Password-reset and confirmation e-mails one client address may ask for per hour. */
  ACCOUNT_EMAILS_PER_ADDRESS: intFromEnv(10, 1, 1_000_000),
  /** How long holds are extended when payment starts. */
  PAYMENT_WINDOW_SECONDS: intFromEnv(900, 60, 86_400),
  /** Card payments funded by credit, per player per UK calendar month (DCMS code: £250). */
  CREDIT_CARD_MONTHLY_CAP_PENCE: intFromEnv(25_000, 0, 100_000_000),
  /** The hosted-page card provider of the spec: POST /api/generate-cashflows-signature signs its form. */
  CASHFLOWS_MERCHANT_ID: optionalText,
  CASHFLOWS_SIGNATURE_KEY: optionalText,
  CASHFLOWS_TEST_MODE: v.optional(v.picklist(['0', '1']), '1'),
  CASHFLOWS_REDIRECT_URL: v.optional(
    v.pipe(v.string(), v.trim(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL')),
  ),
  SMTP_URL: optionalText,
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** How often expired holds are released (0 = never, e.g. in tests that drive it themselves). */
  SWEEP_INTERVAL_MS: intFromEnv(5000, 0, 3_600_000),
  /** Live-draw competitions not drawn by an admin are drawn this long after their end date (0 = never). */
  DRAW_AUTO_AFTER_SECONDS: intFromEnv(86_400, 0, 31_536_000),
  /** Where draws take their public randomness (docs/draws.md): drand's quicknet, or the local test beacon. */
  DRAW_BEACON: v.optional(v.picklist(['drand', 'local'])),
  /** The beacon's chain URL: a drand relay for quicknet, or a local test beacon served elsewhere (tests). */
  DRAW_BEACON_URL: v.optional(
    v.pipe(v.string(), v.trim(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL')),
  ),
  /** A draw uses the first beacon round produced at least this long after its entries are final. */
  DRAW_BEACON_DELAY_SECONDS: intFromEnv(30, 0, 86_400),
  /** The local test beacon's period (quicknet's is 3 s). */
  DRAW_BEACON_PERIOD_SECONDS: intFromEnv(3, 1, 3600),
  /** How often the payment reconciler looks for captured payments left unsettled (0 = only at start-up). */
  RECONCILE_INTERVAL_MS: intFromEnv(60_000, 0, 86_400_000),
  /** A payment captured less than this long ago is left to the webhook or the sandbox confirm. */
  RECONCILE_GRACE_SECONDS: intFromEnv(60, 0, 86_400),
  /** On SIGTERM, how long requests and payments in flight may take to finish before the process exits. */
  SHUTDOWN_GRACE_MS: intFromEnv(20_000, 0, 600_000),
  /** Worker processes `npm start` / `npm run serve` runs on one port (server/cluster.ts). */
  WEB_CONCURRENCY: intFromEnv(1, 1, 64),
  /** Named crash points for fault-injection tests (api/platform/faults.ts); refused in production. */
  FAULT_INJECTION: optionalText,
  /** Set to 1 behind a reverse proxy: the client address is then read from X-Forwarded-For. */
  TRUST_PROXY: v.optional(v.picklist(['0', '1']), '0'),
  RATE_LIMITS: v.optional(v.picklist(['on', 'off']), 'on'),
  // Sign-in and sign-up limits (docs/security.md, "Login and registration limits").
  LOGIN_LIMIT_PER_USERNAME_ADDRESS: intFromEnv(5, 1, 1000),
  LOGIN_LIMIT_PER_ADDRESS: intFromEnv(20, 1, 100_000),
  LOGIN_WINDOW_SECONDS: intFromEnv(900, 1, 86_400),
  LOGIN_ACCOUNT_FREE_FAILURES: intFromEnv(10, 1, 1000),
  LOGIN_ACCOUNT_WINDOW_SECONDS: intFromEnv(3600, 1, 86_400),
  LOGIN_ACCOUNT_MAX_DELAY_SECONDS: intFromEnv(60, 1, 3600),
  REGISTRATIONS_PER_ADDRESS: intFromEnv(3, 1, 100_000),
  REGISTRATION_WINDOW_SECONDS: intFromEnv(3600, 1, 604_800),
  /** Per-socket limits (docs/security.md#socket-limits); RATE_LIMITS does not turn them off. */
  SOCKET_EVENT_BURST: intFromEnv(10, 1, 10_000),
  SOCKET_EVENTS_PER_SECOND: intFromEnv(2, 1, 10_000),
  SOCKET_MAX_ROOMS: intFromEnv(20, 1, 10_000),
  SOCKET_MAX_PAYLOAD_BYTES: intFromEnv(16_384, 1024, 10_000_000),
  SOCKET_STRIKES: intFromEnv(3, 1, 10_000),
  /** Holds (POST /api/cart, PATCH /api/cart/:id) per minute from one browser session (docs/security.md). */
  HOLD_RATE_PER_SESSION: intFromEnv(30, 1, 100_000),
  /** Holds per minute from one IP address, across its sessions (a shared office or home network). */
  HOLD_RATE_PER_ADDRESS: intFromEnv(120, 1, 1_000_000),
  /** Wrong skill answers per competition and account (or guest session) in 24 hours (docs/product.md#skill-question). */
  SKILL_MAX_ATTEMPTS: intFromEnv(2, 1, 100),
  /** Seed demo data on first start (default on; set 0 for an empty production database). */
  SEED_DEMO_DATA: v.optional(v.picklist(['0', '1']), '1'),
  /** The site's public origin, e.g. https://www.westcountryprizes.co.uk (default http://localhost:PORT). */
  PUBLIC_URL: v.optional(originOf('PUBLIC_URL')),
  /** Bearer token for GET /metrics (docs/operations.md#metrics); unset, the endpoint answers 404. */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.trim(), v.minLength(16, 'must be at least 16 characters'))),
  /** Further origins whose pages may open a signed-in socket, comma-separated. */
  ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      ),
      v.array(originOf('each of ALLOWED_ORIGINS')),
    ),
    '',
  ),
});

/** The hosted-page card provider's settings (api/payments/cashflows.ts signs its form). */
export interface CashflowsSettings {
  merchantId: string;
  signatureKey: string;
  testMode: boolean;
  redirectUrl?: string | undefined;
}

/** docs/security.md: failed sign-ins, counted before the password is checked. */
export interface LoginLimitSettings {
  /** Guesses for one username from one address per window. */
  perUsernameAddress: number;
  /** Failed guesses from one address across every username per window. */
  perAddress: number;
  windowSeconds: number;
  /** Failures for one account (from anywhere) per account window before each guess is delayed. */
  accountFreeFailures: number;
  accountWindowSeconds: number;
  /** The growing delay between guesses at one account stops growing here. */
  accountMaxDelaySeconds: number;
}

/** docs/security.md: new accounts per address. */
export interface RegistrationLimitSettings {
  perAddress: number;
  windowSeconds: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** This site's prefix for keys and channels in Redis (redisPrefixOf). */
  redisPrefix: string;
  sessionSecret: string;
  siteName: string;
  supportEmail: string;
  adminUsername: string;
  adminPassword: string;
  /** docs/security.md#two-factor-sign-in: admins without two-factor sign-in reach only its setup. */
  adminRequire2fa: boolean;
  /** What two-factor secrets are encrypted with (TWO_FACTOR_ENCRYPTION_KEY, else SESSION_SECRET). */
  twoFactorKey: string;
  reservationTtlSeconds: number;
  stripe: {
    secretKey?: string | undefined;
    publishableKey?: string | undefined;
    webhookSecret?: string | undefined;
    apiUrl?: string | undefined;
  };
  payments: {
    /** 'stripe' when STRIPE_SECRET_KEY is set, otherwise the offline sandbox. */
    provider: 'stripe' | 'sandbox';
    windowSeconds: number;
    /** Credit-funded card payments per player per UK calendar month, pence. */
    creditCardMonthlyCapPence: number;
  };
  /** Set only when both the merchant id and the signature key are. */
  cashflows: CashflowsSettings | undefined;
  smtpUrl: string | undefined;
  logLevel: string;
  seedDemoData: boolean;
  trustProxy: boolean;
  /** docs/security.md: request-rate limits; off only for benchmarks and load tools. */
  rateLimits: boolean;
  loginLimits: LoginLimitSettings;
  registrationLimits: RegistrationLimitSettings;
  /** docs/security.md#account-e-mail-limits: reset and confirmation e-mails per address per hour. */
  accountEmailsPerAddress: number;
  /** docs/security.md#socket-limits: what one Socket.IO connection may do. */
  socketLimits: {
    eventBurst: number;
    eventsPerSecond: number;
    maxRooms: number;
    maxPayloadBytes: number;
    strikes: number;
  };
  /** Holds per minute, per session and per address (docs/security.md). */
  holdRate: { perSession: number; perAddress: number };
  /** SKILL_MAX_ATTEMPTS: wrong skill answers allowed per competition and person in 24 hours. */
  skillMaxAttempts: number;
  sweepIntervalMs: number;
  /** The payment reconciler (api/orders/paymentReconciler.ts): its interval (0 = start-up only) and grace. */
  reconcile: { intervalMs: number; graceSeconds: number };
  /** SHUTDOWN_GRACE_MS (docs/operations.md#restarts): the drain's time limit on SIGTERM. */
  shutdownGraceMs: number;
  /** WEB_CONCURRENCY: worker processes on one port; above 1 needs REDIS_URL and DATABASE_URL. */
  webConcurrency: number;
  /** FAULT_INJECTION: where the process kills itself (tests only; empty when unset). */
  faultPlan: FaultPlan;
  /** docs/draws.md: seconds after a live-draw competition's end date before it is drawn automatically; 0 never. */
  drawAutoAfterSeconds: number;
  /** docs/draws.md "Version 2": the randomness beacon draws wait for. */
  drawBeacon: {
    /** 'drand' (quicknet; the default in production) or 'local' (a test beacon, labelled as such). */
    kind: 'drand' | 'local';
    /** The chain URL; unset with 'local': the test beacon runs in this process, served under /api/draw-beacon. */
    url: string | undefined;
    delaySeconds: number;
    /** The local beacon's period in seconds. */
    periodSeconds: number;
  };
  /** The site's own origin (PUBLIC_URL); docs/security.md: socket handshakes are checked against it. */
  publicUrl: string;
  /** ALLOWED_ORIGINS: further origins trusted like the site's own. */
  allowedOrigins: string[];
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; undefined turns the endpoint off. */
  metricsToken: string | undefined;
}

export class ConfigError extends Error {}

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

/** Reads and checks the environment; throws ConfigError with every problem listed. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset, as shells and compose files often pass them.
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = v.safeParse(EnvSchema, cleaned);
  if (!result.success) {
    const lines = result.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = result.output;
  if (e.NODE_ENV === 'production' && e.SESSION_SECRET === DEFAULT_SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET must be set to a long random value when NODE_ENV=production.');
  }
  if (e.NODE_ENV === 'production' && !cleaned.ADMIN_PASSWORD) {
    throw new ConfigError('ADMIN_PASSWORD must be set when NODE_ENV=production.');
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_PUBLISHABLE_KEY)) {
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together.');
  }
  if (e.NODE_ENV === 'production' && e.FAULT_INJECTION) {
    throw new ConfigError(
      'FAULT_INJECTION crashes the server on purpose and is refused when NODE_ENV=production.',
    );
  }
  let faultPlan: FaultPlan = new Map();
  try {
    faultPlan = parseFaultPlan(e.FAULT_INJECTION ?? '');
  } catch (err) {
    throw new ConfigError(`Invalid configuration:\n  FAULT_INJECTION: ${(err as Error).message}`);
  }
  const provider = e.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox';
  if (e.NODE_ENV === 'production' && provider === 'sandbox' && e.PAYMENTS_SANDBOX !== '1') {
    throw new ConfigError(
      'Payments: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET when NODE_ENV=production, ' +
        'or PAYMENTS_SANDBOX=1 to run the test-card sandbox (no real money is taken).',
    );
  }
  if (e.WEB_CONCURRENCY > 1 && (!e.REDIS_URL || !e.DATABASE_URL)) {
    throw new ConfigError(
      'WEB_CONCURRENCY above 1 needs REDIS_URL (Socket.IO broadcasts between the workers) and DATABASE_URL ' +
        '(MySQL/MariaDB: a SQLite file is for one process).',
    );
  }
  if (e.NODE_ENV === 'production' && provider === 'stripe' && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with Stripe when NODE_ENV=production.');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: redisPrefixOf(e.DATABASE_URL, path.resolve(e.DATA_DIR)),
    sessionSecret: e.SESSION_SECRET,
    siteName: e.SITE_NAME,
    supportEmail: e.SUPPORT_EMAIL,
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    adminRequire2fa:
      e.ADMIN_REQUIRE_2FA === undefined
        ? e.NODE_ENV === 'production'
        : e.ADMIN_REQUIRE_2FA === 'true' || e.ADMIN_REQUIRE_2FA === '1',
    twoFactorKey: e.TWO_FACTOR_ENCRYPTION_KEY ?? e.SESSION_SECRET,
    reservationTtlSeconds: e.RESERVATION_TTL_SECONDS,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiUrl: e.STRIPE_API_URL,
    },
    payments: {
      provider,
      windowSeconds: e.PAYMENT_WINDOW_SECONDS,
      creditCardMonthlyCapPence: e.CREDIT_CARD_MONTHLY_CAP_PENCE,
    },
    cashflows:
      e.CASHFLOWS_MERCHANT_ID && e.CASHFLOWS_SIGNATURE_KEY
        ? {
            merchantId: e.CASHFLOWS_MERCHANT_ID,
            signatureKey: e.CASHFLOWS_SIGNATURE_KEY,
            testMode: e.CASHFLOWS_TEST_MODE === '1',
            redirectUrl: e.CASHFLOWS_REDIRECT_URL,
          }
        : undefined,
    smtpUrl: e.SMTP_URL,
    logLevel: e.LOG_LEVEL,
    seedDemoData: e.SEED_DEMO_DATA === '1',
    trustProxy: e.TRUST_PROXY === '1',
    rateLimits: e.RATE_LIMITS === 'on',
    loginLimits: {
      perUsernameAddress: e.LOGIN_LIMIT_PER_USERNAME_ADDRESS,
      perAddress: e.LOGIN_LIMIT_PER_ADDRESS,
      windowSeconds: e.LOGIN_WINDOW_SECONDS,
      accountFreeFailures: e.LOGIN_ACCOUNT_FREE_FAILURES,
      accountWindowSeconds: e.LOGIN_ACCOUNT_WINDOW_SECONDS,
      accountMaxDelaySeconds: e.LOGIN_ACCOUNT_MAX_DELAY_SECONDS,
    },
    registrationLimits: {
      perAddress: e.REGISTRATIONS_PER_ADDRESS,
      windowSeconds: e.REGISTRATION_WINDOW_SECONDS,
    },
    accountEmailsPerAddress: e.ACCOUNT_EMAILS_PER_ADDRESS,
    socketLimits: {
      eventBurst: e.SOCKET_EVENT_BURST,
      eventsPerSecond: e.SOCKET_EVENTS_PER_SECOND,
      maxRooms: e.SOCKET_MAX_ROOMS,
      maxPayloadBytes: e.SOCKET_MAX_PAYLOAD_BYTES,
      strikes: e.SOCKET_STRIKES,
    },
    holdRate: { perSession: e.HOLD_RATE_PER_SESSION, perAddress: e.HOLD_RATE_PER_ADDRESS },
    skillMaxAttempts: e.SKILL_MAX_ATTEMPTS,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    reconcile: { intervalMs: e.RECONCILE_INTERVAL_MS, graceSeconds: e.RECONCILE_GRACE_SECONDS },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    webConcurrency: e.WEB_CONCURRENCY,
    faultPlan,
    drawAutoAfterSeconds: e.DRAW_AUTO_AFTER_SECONDS,
    drawBeacon: {
      kind: e.DRAW_BEACON ?? (e.NODE_ENV === 'production' ? 'drand' : 'local'),
      url: e.DRAW_BEACON_URL?.replace(/\/+$/, ''),
      delaySeconds: e.DRAW_BEACON_DELAY_SECONDS,
      periodSeconds: e.DRAW_BEACON_PERIOD_SECONDS,
    },
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    allowedOrigins: e.ALLOWED_ORIGINS,
    metricsToken: e.METRICS_TOKEN,
  };
}
