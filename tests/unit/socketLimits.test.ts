import { describe, expect, it } from 'vitest';
import type { LimitState } from '../../realtime/socketLimits';
import { recordStrike, takeToken } from '../../realtime/socketLimits';

describe('takeToken (a token bucket kept as the time it is full again)', () => {
  it('allows a burst, then refills at its rate and never beyond its size', () => {
    const state: LimitState = { bucketFullAt: 0 };
    const take = (now: number) => takeToken(state, 10, 2, now);
    const burst = Array.from({ length: 12 }, () => take(0));
    expect(burst.filter(Boolean)).toHaveLength(10);
    expect(take(400)).toBe(false); // 0.8 of a token
    expect(take(500)).toBe(true); // one token after half a second at 2/s
    expect(take(500)).toBe(false);
    // An hour idle refills to the burst, not to 7,200.
    const later = Array.from({ length: 12 }, () => take(3_600_000));
    expect(later.filter(Boolean)).toHaveLength(10);
  });

  it('refills fractions of a token at rates that do not divide a second', () => {
    const state: LimitState = { bucketFullAt: 0 };
    expect([0, 0, 0].map((t) => takeToken(state, 2, 3, t))).toEqual([true, true, false]);
    expect(takeToken(state, 2, 3, 333)).toBe(false);
    expect(takeToken(state, 2, 3, 334)).toBe(true);
  });

  it('ignores a clock that goes backwards', () => {
    const state: LimitState = { bucketFullAt: 0 };
    expect(takeToken(state, 1, 1, 1_000)).toBe(true);
    expect(takeToken(state, 1, 1, 0)).toBe(false);
  });
});

describe('recordStrike', () => {
  it('says when the limit is reached within the window, forgetting older strikes', () => {
    const state: LimitState = { bucketFullAt: 0 };
    expect(state.strikeTimes).toBeUndefined(); // nothing kept until the first refusal
    expect(recordStrike(state, 3, 0, 10_000)).toBe(false);
    expect(recordStrike(state, 3, 5_000, 10_000)).toBe(false);
    expect(recordStrike(state, 3, 10_500, 10_000)).toBe(false); // the first has left the window
    expect(recordStrike(state, 3, 11_000, 10_000)).toBe(true);
  });
});
