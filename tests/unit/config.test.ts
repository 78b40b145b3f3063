import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_SESSION_SECRET, loadConfig, redisPrefixOf } from '../../api/platform/config';

describe('loadConfig', () => {
  it('has working defaults for a laptop', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      siteName: 'Westcountry Prizes',
      reservationTtlSeconds: 600,
      adminUsername: 'admin',
      databaseUrl: undefined,
      sessionSecret: DEFAULT_SESSION_SECRET,
    });
    expect(config.dataDir).toBe(path.resolve('data'));
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'mysql://root@db:3306/prizes',
      REDIS_URL: 'redis://cache:6379',
      SESSION_SECRET: 'a'.repeat(32),
      SITE_NAME: 'Kernow Prizes',
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'secret99',
      RESERVATION_TTL_SECONDS: '120',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      SMTP_URL: 'smtp://mail:25',
    });
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/tmp/x',
      databaseUrl: 'mysql://root@db:3306/prizes',
      redisUrl: 'redis://cache:6379',
      siteName: 'Kernow Prizes',
      adminUsername: 'boss',
      reservationTtlSeconds: 120,
      stripe: { secretKey: 'sk_test_1', publishableKey: 'pk_test_1', webhookSecret: 'whsec_1' },
      smtpUrl: 'smtp://mail:25',
    });
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', SITE_NAME: '' })).toMatchObject({
      port: 3000,
      siteName: 'Westcountry Prizes',
    });
  });

  it('refuses to start in production with the default session secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'x'.repeat(12) })).toThrow(
      /SESSION_SECRET must be set/,
    );
  });

  it('refuses to start in production without an admin password', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) })).toThrow(
      /ADMIN_PASSWORD/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 's'.repeat(40),
        ADMIN_PASSWORD: 'long-enough',
        PAYMENTS_SANDBOX: '1',
      }).env,
    ).toBe('production');
  });

  it('refuses the test-card sandbox in production unless PAYMENTS_SANDBOX=1, and half a Stripe set-up anywhere', () => {
    const prod = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), ADMIN_PASSWORD: 'long-enough' };
    expect(() => loadConfig(prod)).toThrow(/PAYMENTS_SANDBOX=1/);
    expect(loadConfig({ ...prod, PAYMENTS_SANDBOX: '1' }).payments.provider).toBe('sandbox');
    expect(() =>
      loadConfig({ ...prod, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }),
    ).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(
      loadConfig({
        ...prod,
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }).payments.provider,
    ).toBe('stripe');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/must be set together/);
    expect(loadConfig({}).payments.provider).toBe('sandbox');
  });

  it('lists every invalid value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', RESERVATION_TTL_SECONDS: '5', SESSION_SECRET: 'short' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/PORT/);
    expect(String(error)).toMatch(/RESERVATION_TTL_SECONDS/);
    expect(String(error)).toMatch(/SESSION_SECRET/);
  });

  it('reads the site origin and the extra allowed origins, each kept as an origin', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      publicUrl: 'http://localhost:8080',
      allowedOrigins: [],
    });
    expect(
      loadConfig({
        PUBLIC_URL: 'https://www.westcountryprizes.co.uk/',
        ALLOWED_ORIGINS: 'https://admin.westcountryprizes.co.uk, http://localhost:5173/path ,',
      }),
    ).toMatchObject({
      publicUrl: 'https://www.westcountryprizes.co.uk',
      allowedOrigins: ['https://admin.westcountryprizes.co.uk', 'http://localhost:5173'],
    });
    expect(() => loadConfig({ PUBLIC_URL: 'www.example.com' })).toThrow(
      /PUBLIC_URL: PUBLIC_URL must be a URL/,
    );
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'https://ok.example, ftp://files.example' })).toThrow(
      /ALLOWED_ORIGINS\.1: each of ALLOWED_ORIGINS must be an http\(s\) URL/,
    );
  });

  it('requires admin two-factor sign-in by default in production only, and can be set either way', () => {
    const prod = {
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      ADMIN_PASSWORD: 'long-enough',
      PAYMENTS_SANDBOX: '1',
    };
    expect(loadConfig(prod).adminRequire2fa).toBe(true);
    expect(loadConfig({ ...prod, ADMIN_REQUIRE_2FA: 'false' }).adminRequire2fa).toBe(false);
    expect(loadConfig({}).adminRequire2fa).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', ADMIN_REQUIRE_2FA: 'true' }).adminRequire2fa).toBe(true);
    expect(() => loadConfig({ ADMIN_REQUIRE_2FA: 'yes' })).toThrow(/ADMIN_REQUIRE_2FA/);
    // Secrets are encrypted with their own key when given one, else one derived from SESSION_SECRET.
    expect(loadConfig(prod).twoFactorKey).toBe('s'.repeat(40));
    expect(loadConfig({ ...prod, TWO_FACTOR_ENCRYPTION_KEY: 'k'.repeat(32) }).twoFactorKey).toBe(
      'k'.repeat(32),
    );
  });

  it('reads FAULT_INJECTION crash points, and refuses them in production', () => {
    expect(loadConfig({}).faultPlan.size).toBe(0);
    expect([...loadConfig({ FAULT_INJECTION: 'after-capture@3, after-sale-committed' }).faultPlan]).toEqual([
      ['after-capture', 3],
      ['after-sale-committed', 1],
    ]);
    expect(() => loadConfig({ FAULT_INJECTION: 'before-breakfast' })).toThrow(
      /FAULT_INJECTION: unknown fault point "before-breakfast"/,
    );
    expect(() => loadConfig({ FAULT_INJECTION: 'after-capture@0' })).toThrow(/whole number from 1/);
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-random-production-secret',
      ADMIN_PASSWORD: 'a-strong-one',
      PAYMENTS_SANDBOX: '1',
    };
    expect(loadConfig(production).faultPlan.size).toBe(0);
    expect(() => loadConfig({ ...production, FAULT_INJECTION: 'after-capture' })).toThrow(
      'FAULT_INJECTION crashes the server on purpose and is refused when NODE_ENV=production.',
    );
  });

  it('reads PASSWORD_HASH_COST, and refuses the cheap test cost in production', () => {
    expect(loadConfig({}).passwordHashCost).toBe('production');
    expect(loadConfig({ PASSWORD_HASH_COST: 'test' }).passwordHashCost).toBe('test');
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap' })).toThrow(/PASSWORD_HASH_COST/);
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a-long-random-production-secret',
      ADMIN_PASSWORD: 'a-strong-one',
      PAYMENTS_SANDBOX: '1',
    };
    expect(loadConfig({ ...production, PASSWORD_HASH_COST: 'production' }).passwordHashCost).toBe(
      'production',
    );
    expect(() => loadConfig({ ...production, PASSWORD_HASH_COST: 'test' })).toThrow(
      'PASSWORD_HASH_COST=test makes password hashes cheap to guess and is refused when NODE_ENV=production.',
    );
  });

  it('reads the payment reconciler interval and grace', () => {
    expect(loadConfig({}).reconcile).toEqual({ intervalMs: 60_000, graceSeconds: 60 });
    expect(loadConfig({ RECONCILE_INTERVAL_MS: '0', RECONCILE_GRACE_SECONDS: '5' }).reconcile).toEqual({
      intervalMs: 0,
      graceSeconds: 5,
    });
  });

  it('reads the shutdown grace period, 20 s unless set', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(20_000);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(
      'SHUTDOWN_GRACE_MS: must be a whole number',
    );
  });

  it('reads the VAPID key pair, both or neither, and allows private push endpoints outside production only', () => {
    const pair = { VAPID_PUBLIC_KEY: `B${'a'.repeat(86)}`, VAPID_PRIVATE_KEY: 'k'.repeat(43) };
    expect(loadConfig({}).push).toEqual({ vapid: undefined, allowPrivateEndpoints: true });
    expect(loadConfig(pair).push.vapid).toEqual({
      publicKey: pair.VAPID_PUBLIC_KEY,
      privateKey: pair.VAPID_PRIVATE_KEY,
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: pair.VAPID_PUBLIC_KEY })).toThrow(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together.',
    );
    expect(() => loadConfig({ ...pair, VAPID_PRIVATE_KEY: 'short' })).toThrow('VAPID_PRIVATE_KEY');
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'a'.repeat(32),
      ADMIN_PASSWORD: 'secret99',
      PAYMENTS_SANDBOX: '1',
    };
    expect(loadConfig(production).push.allowPrivateEndpoints).toBe(false);
  });

  it('runs one process unless WEB_CONCURRENCY says more, which needs Redis and MariaDB', () => {
    expect(loadConfig({}).webConcurrency).toBe(1);
    const shared = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'mysql://root@127.0.0.1/test' };
    expect(loadConfig({ ...shared, WEB_CONCURRENCY: '4' }).webConcurrency).toBe(4);
    const refusal = /WEB_CONCURRENCY above 1 needs REDIS_URL .* and DATABASE_URL/;
    expect(() => loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: shared.DATABASE_URL })).toThrow(refusal);
    expect(() => loadConfig({ WEB_CONCURRENCY: '2', REDIS_URL: shared.REDIS_URL })).toThrow(refusal);
    expect(() => loadConfig({ ...shared, WEB_CONCURRENCY: '0' })).toThrow('WEB_CONCURRENCY');
  });
});

describe('redisPrefixOf', () => {
  it('is one per database: the same for every process of a site, another for another site', () => {
    const prod = redisPrefixOf('mysql://app:secret@db.internal:3306/prizes', '/srv/a');
    expect(prod).toMatch(/^wcp:[0-9a-f]{12}$/);
    expect(redisPrefixOf('mysql://app:other@db.internal/prizes', '/srv/b')).toBe(prod);
    expect(redisPrefixOf('mysql://app:secret@db.internal:3306/prizes_staging', '/srv/a')).not.toBe(prod);
    expect(redisPrefixOf(undefined, '/srv/a')).not.toBe(redisPrefixOf(undefined, '/srv/b'));
  });
});
