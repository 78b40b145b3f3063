import * as v from 'valibot';

// Every environment variable the server reads, declared once: its text default, how its text is
// checked and turned into a value, what it is for, and what NODE_ENV=production refuses.
// index.ts derives `Config` from these; docs/configuration.md documents each one (a unit test
// checks that the two name the same variables). To add a variable: add an entry here, use it in
// index.ts, and add its row to docs/configuration.md.

/** What NODE_ENV=production refuses: the variable unset, left at its default, or set at all. */
export interface ProductionRule {
  refuse: 'unset' | 'default' | 'set';
  message: string;
}

export interface EnvVariable {
  /** What it sets, in a line (docs/configuration.md says more). */
  description: string;
  /** The text used while it is unset (an empty string counts as unset), checked like a set value. */
  default?: string;
  /** Checks the text and turns it into the value. */
  schema: v.GenericSchema<string, unknown>;
  production?: ProductionRule;
}

/** The session secret used when SESSION_SECRET is unset: fine on a laptop, refused in production. */
export const DEFAULT_SESSION_SECRET = 'insecure-development-session-secret-change-me';

const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min),
    v.maxValue(max),
  );

/** A whole-number variable: its default, its bounds, its line. */
const int = (fallback: number, min: number, max: number, description: string) =>
  ({ description, default: String(fallback), schema: wholeNumber(min, max) }) as const;

const text = v.pipe(v.string(), v.trim(), v.minLength(1));
const atLeast16 = v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'));
const httpUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url('must be a URL'),
  v.regex(/^https?:\/\//, 'must be an http(s) URL'),
);
const flag = v.picklist(['0', '1']);

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

const site = {
  NODE_ENV: {
    description: 'production turns on secure cookies, HSTS and the production checks',
    default: 'development',
    schema: v.picklist(['development', 'production', 'test']),
  },
  PORT: int(3000, 0, 65535, 'HTTP port for the site, the API and Socket.IO'),
  HOST: { description: 'the interface to listen on', default: '0.0.0.0', schema: v.string() },
  DATA_DIR: {
    description: 'where the SQLite file, uploads and the e-mail outbox live',
    default: 'data',
    schema: v.string(),
  },
  DATABASE_URL: { description: 'mysql://… switches from SQLite to MySQL / MariaDB', schema: text },
  REDIS_URL: { description: 'Redis for Socket.IO broadcasts and shared rate limits', schema: text },
  SESSION_SECRET: {
    description: 'signs the session cookie',
    default: DEFAULT_SESSION_SECRET,
    schema: atLeast16,
    production: {
      refuse: 'default',
      message: 'SESSION_SECRET must be set to a long random value when NODE_ENV=production.',
    },
  },
  SITE_NAME: {
    description: 'the brand name in pages and e-mails',
    default: 'Westcountry Prizes',
    schema: text,
  },
  SUPPORT_EMAIL: {
    description: 'the support address shown on pages and sending every e-mail',
    default: 'support@westcountryprizes.co.uk',
    schema: v.pipe(v.string(), v.email()),
  },
  ADMIN_USERNAME: {
    description: 'the admin account created on start if missing',
    default: 'admin',
    schema: v.pipe(v.string(), v.minLength(3)),
  },
  ADMIN_PASSWORD: {
    description: "that admin account's password",
    default: 'admin123',
    schema: v.pipe(v.string(), v.minLength(6)),
    production: { refuse: 'unset', message: 'ADMIN_PASSWORD must be set when NODE_ENV=production.' },
  },
  ADMIN_REQUIRE_2FA: {
    description: 'admins must turn on two-factor sign-in first (default: on in production)',
    schema: v.picklist(['true', 'false', '1', '0']),
  },
  TWO_FACTOR_ENCRYPTION_KEY: {
    description: 'encrypts two-factor secrets at rest (default: derived from SESSION_SECRET)',
    schema: atLeast16,
  },
  VAPID_PUBLIC_KEY: {
    description:
      "web push's VAPID public key (base64url; with VAPID_PRIVATE_KEY, else made on first start and stored)",
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[A-Za-z0-9_-]{86,88}$/, 'must be a base64url P-256 public key'),
    ),
  },
  VAPID_PRIVATE_KEY: {
    description: "web push's VAPID private key (base64url; with VAPID_PUBLIC_KEY)",
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^[A-Za-z0-9_-]{42,44}$/, 'must be a base64url P-256 private key'),
    ),
  },
  EXCLUSION_REGISTER_KEY: {
    description: 'keys the hashes of the self-exclusion register (default: SESSION_SECRET)',
    schema: atLeast16,
  },
  SMTP_URL: { description: 'the mail server; unset, mail goes to DATA_DIR/outbox', schema: text },
  LOG_LEVEL: {
    description: 'the pino log level',
    default: 'info',
    schema: v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  },
  SEED_DEMO_DATA: {
    description: 'seed demo data on first start (0 for an empty production database)',
    default: '1',
    schema: flag,
  },
  PUBLIC_URL: {
    description: "the site's public origin (default http://localhost:PORT)",
    schema: originOf('PUBLIC_URL'),
  },
  ALLOWED_ORIGINS: {
    description: 'further origins whose pages may open a signed-in socket, comma-separated',
    default: '',
    schema: v.pipe(
      v.string(),
      v.transform((list) =>
        list
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean),
      ),
      v.array(originOf('each of ALLOWED_ORIGINS')),
    ),
  },
  METRICS_TOKEN: {
    description: 'the bearer token of GET /metrics; unset, the endpoint answers 404',
    schema: v.pipe(v.string(), v.trim(), v.minLength(16, 'must be at least 16 characters')),
  },
  TRUST_PROXY: {
    description: '1 behind a reverse proxy: the client address is read from X-Forwarded-For',
    default: '0',
    schema: flag,
  },
  WEB_CONCURRENCY: int(1, 1, 64, 'worker processes `npm start` runs on one port (server/cluster.ts)'),
  FAST_PATHS: {
    description:
      'off runs knex, engine.io, socket.io-adapter and ws without the patches of fastpaths/, and holds without the hot path',
    default: 'on',
    schema: v.picklist(['on', 'off']),
  },
  SHUTDOWN_GRACE_MS: int(20_000, 0, 600_000, 'on SIGTERM, how long work in flight may take to finish'),
  PASSWORD_HASH_COST: {
    description:
      "scrypt's cost for new password hashes: production (OWASP's parameters) or test (cheap; tests only)",
    default: 'production',
    schema: v.picklist(['production', 'test']),
  },
  FAULT_INJECTION: {
    description: 'named crash points for fault-injection tests (api/platform/faults.ts)',
    schema: text,
    production: {
      refuse: 'set',
      message: 'FAULT_INJECTION crashes the server on purpose and is refused when NODE_ENV=production.',
    },
  },
} as const satisfies Record<string, EnvVariable>;

const payments = {
  RESERVATION_TTL_SECONDS: int(600, 10, 86_400, 'how long numbers stay held in a cart'),
  PAYMENT_WINDOW_SECONDS: int(900, 60, 86_400, 'how long holds are extended when payment starts'),
  CREDIT_CARD_MONTHLY_CAP_PENCE: int(25_000, 0, 100_000_000, 'credit-card spend per player per UK month'),
  STRIPE_SECRET_KEY: { description: 'Stripe: card payments through its Payment Element', schema: text },
  STRIPE_PUBLISHABLE_KEY: { description: "Stripe's publishable key, set with the secret key", schema: text },
  STRIPE_WEBHOOK_SECRET: {
    description: "signs Stripe's webhooks (required with Stripe in production)",
    schema: text,
  },
  STRIPE_API_URL: {
    description: 'where the Stripe SDK sends API calls (tests: a local server)',
    schema: httpUrl,
  },
  APPLE_PAY_DOMAIN_ASSOCIATION: {
    description:
      "the contents of Apple Pay's domain-association file, served at /.well-known/apple-developer-merchantid-domain-association; unset, 404",
    schema: v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')),
  },
  PAYMENTS_SANDBOX: {
    description: 'allows the offline sandbox gateway (test cards) when NODE_ENV=production',
    default: '0',
    schema: flag,
  },
  CASHFLOWS_MERCHANT_ID: { description: 'the hosted-page card provider of the spec', schema: text },
  CASHFLOWS_SIGNATURE_KEY: { description: 'signs that provider’s form (SHA-512)', schema: text },
  CASHFLOWS_TEST_MODE: { description: "that provider's test flag", default: '1', schema: flag },
  CASHFLOWS_REDIRECT_URL: { description: "that provider's return page", schema: httpUrl },
} as const satisfies Record<string, EnvVariable>;

const jobs = {
  SWEEP_INTERVAL_MS: int(5000, 0, 3_600_000, 'how often expired holds are released (0 = never)'),
  RECONCILE_INTERVAL_MS: int(60_000, 0, 86_400_000, 'how often unsettled payments are sought'),
  RECONCILE_GRACE_SECONDS: int(60, 0, 86_400, 'a payment captured more recently is left to its request'),
  DRAW_AUTO_AFTER_SECONDS: int(86_400, 0, 31_536_000, 'when after its end a live draw runs itself'),
  LAUNCH_QUEUE_OPENS_MINUTES: int(10, 0, 1440, 'how long before a queued launch visitors may join'),
  LAUNCH_QUEUE_PER_ADDRESS: int(20, 1, 100_000, 'places in one launch queue per client address'),
  LAUNCH_ADMIT_PER_SECOND: int(20, 1, 1000, 'visitors let in per second from a launch queue'),
  LAUNCH_ADMISSION_MINUTES: int(10, 1, 1440, 'how long an admitted visitor has to hold numbers'),
  OUTBOX_INTERVAL_MS: int(
    5000,
    0,
    3_600_000,
    'how often owed e-mails are sent (0: at start and after COMMIT)',
  ),
  OUTBOX_MAX_ATTEMPTS: int(8, 1, 100, 'tries of one owed e-mail before it is marked failed'),
  OUTBOX_RETRY_BASE_MS: int(30_000, 0, 86_400_000, 'the first retry delay; it doubles each try'),
  OUTBOX_LEASE_SECONDS: int(120, 1, 86_400, 'how long a process owns a row it is sending'),
  ENDING_SOON_NOTICE_MINUTES: int(
    1440,
    1,
    43_200,
    "how long before a competition's close the ending-soon e-mail goes out",
  ),
  MARKETING_EMAILS_PER_DAY: int(1, 1, 100, 'marketing e-mails one customer may get in 24 hours'),
  DRAW_BEACON: {
    description:
      "draws' public randomness: drand's quicknet, or the local test beacon (on-demand: tests only, refused in production)",
    schema: v.picklist(['drand', 'local', 'on-demand']),
  },
  DRAW_BEACON_URL: {
    description: "the beacon's chain URL (a drand relay, or a test beacon)",
    schema: httpUrl,
  },
  DRAW_BEACON_DELAY_SECONDS: int(30, 0, 86_400, 'the wait from final entries to the round'),
  DRAW_BEACON_PERIOD_SECONDS: int(3, 1, 3600, "the local test beacon's period"),
} as const satisfies Record<string, EnvVariable>;

// The limits of docs/security.md.
const limits = {
  RATE_LIMITS: {
    description: 'off lets load through the request-rate limits (benchmarks only); guess limits stay on',
    default: 'on',
    schema: v.picklist(['on', 'off']),
  },
  LOGIN_LIMIT_PER_USERNAME_ADDRESS: int(5, 1, 1000, 'sign-in guesses for one username from one address'),
  LOGIN_LIMIT_PER_ADDRESS: int(20, 1, 100_000, 'failed sign-ins from one address across usernames'),
  LOGIN_WINDOW_SECONDS: int(900, 1, 86_400, 'the window of the two limits above'),
  LOGIN_ACCOUNT_FREE_FAILURES: int(10, 1, 1000, 'failed sign-ins at one account before guesses are delayed'),
  LOGIN_ACCOUNT_WINDOW_SECONDS: int(3600, 1, 86_400, 'the window of the per-account count'),
  LOGIN_ACCOUNT_MAX_DELAY_SECONDS: int(60, 1, 3600, 'the longest wait between guesses at one account'),
  REGISTRATIONS_PER_ADDRESS: int(3, 1, 100_000, 'new accounts from one address per window'),
  REGISTRATION_WINDOW_SECONDS: int(3600, 1, 604_800, 'the window of the registration limit'),
  ACCOUNT_EMAILS_PER_ADDRESS: int(10, 1, 1_000_000, 'account e-mails one address may ask for per hour'),
  SOCKET_EVENT_BURST: int(10, 1, 10_000, 'events one socket may send at once'),
  SOCKET_EVENTS_PER_SECOND: int(2, 1, 10_000, 'events one socket may send per second after the burst'),
  SOCKET_MAX_ROOMS: int(20, 1, 10_000, 'competitions one socket may watch at once'),
  SOCKET_MAX_PAYLOAD_BYTES: int(16_384, 1024, 10_000_000, 'the largest message a socket may send'),
  SOCKET_STRIKES: int(3, 1, 10_000, 'refused events within 10 s that disconnect a socket'),
  HOLD_RATE_PER_SESSION: int(30, 1, 100_000, 'holds per minute from one browser session'),
  HOLD_RATE_PER_ADDRESS: int(120, 1, 1_000_000, 'holds per minute from one IP address, across its sessions'),
  SKILL_MAX_ATTEMPTS: int(2, 1, 100, 'wrong skill answers per competition and person in 24 hours'),
} as const satisfies Record<string, EnvVariable>;

export const ENV_VARIABLES = { ...site, ...payments, ...jobs, ...limits };

type Declared = typeof ENV_VARIABLES;

/** Each variable's value: the schema's output, or undefined when it has no default and is unset. */
export type EnvValues = {
  [K in keyof Declared]: Declared[K] extends { schema: v.GenericSchema<string, infer T> }
    ? Declared[K] extends { default: string }
      ? T
      : T | undefined
    : never;
};
