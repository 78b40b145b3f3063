import { describe, expect, it } from 'vitest';
import { Strikes, TokenBucket } from '../../realtime/socketLimits';

describe('TokenBucket', () => {
  it('allows a burst, then refills at its rate and never beyond its size', () => {
    const bucket = new TokenBucket(10, 2, 0);
    const burst = Array.from({ length: 12 }, () => bucket.take(0));
    expect(burst.filter(Boolean)).toHaveLength(10);
    expect(bucket.take(400)).toBe(false); // 0.8 of a token
    expect(bucket.take(500)).toBe(true); // one token after half a second at 2/s
    expect(bucket.take(500)).toBe(false);
    // An hour idle refills to the burst, not to 7,200.
    const later = Array.from({ length: 12 }, () => bucket.take(3_600_000));
    expect(later.filter(Boolean)).toHaveLength(10);
  });

  it('ignores a clock that goes backwards', () => {
    const bucket = new TokenBucket(1, 1, 1_000);
    expect(bucket.take(1_000)).toBe(true);
    expect(bucket.take(0)).toBe(false);
  });
});

describe('Strikes', () => {
  it('says when the limit is reached within the window, forgetting older strikes', () => {
    const strikes = new Strikes(3, 10_000);
    expect(strikes.record(0)).toBe(false);
    expect(strikes.record(5_000)).toBe(false);
    expect(strikes.record(10_500)).toBe(false); // the first has left the window
    expect(strikes.record(11_000)).toBe(true);
  });
});
