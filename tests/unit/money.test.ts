import { describe, expect, it } from 'vitest';
import { compareForListing, progressPercent } from '../../contract/competitions';
import { formatPence, formatPounds, penceToPounds, poundsToPence } from '../../contract/money';

describe('money', () => {
  it('converts pence to pounds and back exactly', () => {
    expect(penceToPounds(299)).toBe(2.99);
    expect(poundsToPence(2.99)).toBe(299);
    expect(poundsToPence(0.1 + 0.2)).toBe(30);
    for (let p = 0; p <= 100_000; p += 7) expect(poundsToPence(penceToPounds(p))).toBe(p);
  });

  it('formats GBP for en-GB with two decimals', () => {
    expect(formatPence(500)).toBe('£5.00');
    expect(formatPence(123456)).toBe('£1,234.56');
    expect(formatPounds(0.25)).toBe('£0.25');
  });
});

describe('progressPercent', () => {
  it('is sold / total, capped between 0 and 95', () => {
    expect(progressPercent(50, 200)).toBe(25);
    expect(progressPercent(100, 100)).toBe(95);
    expect(progressPercent(-5, 100)).toBe(0);
  });

  it('uses the default 1,000 total when the total is missing', () => {
    expect(progressPercent(100, 0)).toBe(10);
  });
});

describe('compareForListing', () => {
  it('puts live draws before auto-win, newest first within each, id breaking ties', () => {
    const list = [
      { id: 1, autoWin: true, createdAt: '2026-01-02T00:00:00Z' },
      { id: 2, autoWin: false, createdAt: '2026-01-01T00:00:00Z' },
      { id: 3, autoWin: false, createdAt: '2026-01-03T00:00:00Z' },
      { id: 4, autoWin: true, createdAt: '2026-01-02T00:00:00Z' },
    ];
    expect([...list].sort(compareForListing).map((c) => c.id)).toEqual([3, 2, 4, 1]);
  });
});
