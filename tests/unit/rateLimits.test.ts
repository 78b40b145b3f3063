import { describe, expect, it } from 'vitest';
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
