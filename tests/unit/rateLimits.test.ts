import { describe, expect, it } from 'vitest';
import {
  COMPLAINTS_PER_ACCOUNT_PER_DAY,
  COMPLAINTS_PER_ADDRESS_PER_HOUR,
  createComplaintLimit,
} from '../../api/accounts/compliance/complaints';
import { HttpError } from '../../api/platform/errors';
import { createRateLimits } from '../../api/platform/rateLimits';

const message = (s: number) => `Too many tries. Please wait ${s} seconds.`;

describe('rate limits', () => {
  it('lets a key make its points, then answers 429 with Retry-After and the message', async () => {
    const limits = createRateLimits({ enabled: true });
    const limiter = limits.limiter({ name: 'unit-a', points: 3, durationSeconds: 60 });
    for (let i = 0; i < 3; i++) await limiter.hit('1.2.3.4', message);
    const refused = await limiter.hit('1.2.3.4', message).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    const err = refused as HttpError;
    expect(err.status).toBe(429);
    expect(err.code).toBe('rate_limited');
    expect(Number(err.headers?.['Retry-After'])).toBeGreaterThan(0);
    expect(err.message).toBe(message(Number(err.headers?.['Retry-After'])));
    // Another key has its own count.
    await limiter.hit('5.6.7.8', message);
  });

  it('counts concurrent hits atomically: of 30 at once, exactly `points` pass', async () => {
    const limiter = createRateLimits({ enabled: true }).limiter({
      name: 'unit-b',
      points: 5,
      durationSeconds: 60,
    });
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => limiter.hit('k', message)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  });

  it('RATE_LIMITS=off lets load through, but never past a guess limit', async () => {
    const off = createRateLimits({ enabled: false });
    const limiter = off.limiter({ name: 'unit-c', points: 1, durationSeconds: 60 });
    for (let i = 0; i < 10; i++) await limiter.hit('k', message);
    const guesses = off.limiter({ name: 'unit-d', points: 1, durationSeconds: 60, guesses: true });
    await guesses.hit('k', message);
    await expect(guesses.hit('k', message)).rejects.toMatchObject({ status: 429 });
  });
});

describe('the complaint limit', () => {
  it('allows COMPLAINTS_PER_ACCOUNT_PER_DAY per account and COMPLAINTS_PER_ADDRESS_PER_HOUR per address, even with RATE_LIMITS=off', async () => {
    const count = createComplaintLimit(createRateLimits({ enabled: false }));
    for (let i = 0; i < COMPLAINTS_PER_ACCOUNT_PER_DAY; i++) await count(1, '203.0.113.9');
    await expect(count(1, '203.0.113.10')).rejects.toMatchObject({ status: 429 });
    let accepted = 0;
    for (let user = 2; accepted < COMPLAINTS_PER_ADDRESS_PER_HOUR + 5; user++) {
      try {
        await count(user, '198.51.100.7');
        accepted++;
      } catch (err) {
        expect(err).toMatchObject({ status: 429 });
        break;
      }
    }
    expect(accepted).toBe(COMPLAINTS_PER_ADDRESS_PER_HOUR);
  });
});
