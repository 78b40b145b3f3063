import { describe, expect, it } from 'vitest';
import { limitsAt } from '../../api/accounts/protection/spendLimits';
import {
  creditCardCapMessage,
  formatLimit,
  selfExcludedMessage,
  selfExclusionEnd,
  spendLimitMessage,
  ukMonthStart,
} from '../../contract/protection';

describe('player protection rules', () => {
  it('the UK month starts at midnight London time, GMT or BST', () => {
    // November: GMT, so midnight is 00:00 UTC.
    expect(ukMonthStart(Date.UTC(2026, 10, 23, 17, 0))).toBe(Date.UTC(2026, 10, 1, 0, 0));
    // July: BST, so midnight on the 1st is 23:00 UTC on 30 June.
    expect(ukMonthStart(Date.UTC(2026, 6, 15))).toBe(Date.UTC(2026, 5, 30, 23, 0));
    // 23:30 UTC on 31 July is already 1 August in London.
    expect(ukMonthStart(Date.UTC(2026, 6, 31, 23, 30))).toBe(Date.UTC(2026, 6, 31, 23, 0));
    // New Year's Eve late evening stays in December (GMT).
    expect(ukMonthStart(Date.UTC(2026, 11, 31, 23, 59))).toBe(Date.UTC(2026, 11, 1));
  });

  it('break lengths: hours and days exactly, months and years by the calendar', () => {
    const from = Date.UTC(2026, 0, 31, 12);
    expect(selfExclusionEnd('24h', from)).toBe(from + 86_400_000);
    expect(selfExclusionEnd('7d', from)).toBe(from + 7 * 86_400_000);
    expect(selfExclusionEnd('30d', from)).toBe(from + 30 * 86_400_000);
    expect(new Date(selfExclusionEnd('6m', Date.UTC(2026, 2, 10))).toISOString()).toBe(
      '2026-09-10T00:00:00.000Z',
    );
    expect(new Date(selfExclusionEnd('1y', from)).toISOString()).toBe('2027-01-31T12:00:00.000Z');
    expect(new Date(selfExclusionEnd('5y', from)).toISOString()).toBe('2031-01-31T12:00:00.000Z');
  });

  it('messages name whole pounds without pence', () => {
    expect(formatLimit(25_000)).toBe('£250');
    expect(formatLimit(1_250)).toBe('£12.50');
    expect(formatLimit(100_000)).toBe('£1,000');
    expect(spendLimitMessage(1000, 400)).toBe(
      'This would take you over your monthly spending limit of £10 (£4 left this month).',
    );
    expect(spendLimitMessage(1000, -50)).toContain('(£0 left this month)');
    expect(creditCardCapMessage(25_000)).toBe(
      'Credit card payments are limited to £250 a month. Use a debit card or site credit.',
    );
    // London's date: 23:30 UTC on 27 May is already 28 May in summer time.
    expect(selfExcludedMessage('2031-05-27T23:30:00.000Z')).toBe(
      "You're taking a break until 28 May 2031. You can't enter until then.",
    );
    expect(selfExcludedMessage('2026-07-05T18:30:00.000Z')).toBe(
      "You're taking a break until 5 July 2026. You can't enter until then.",
    );
  });

  it('a pending change takes over once its time has come', () => {
    const row = { monthlySpendLimitPence: 1000, pendingSpendLimitPence: 5000, pendingSpendLimitAt: 2000 };
    expect(limitsAt(row, 1999)).toEqual({ limit: 1000, pending: { value: 5000, at: 2000 } });
    expect(limitsAt(row, 2000)).toEqual({ limit: 5000, pending: null });
    const removal = { monthlySpendLimitPence: 1000, pendingSpendLimitPence: null, pendingSpendLimitAt: 2000 };
    expect(limitsAt(removal, 1000).pending).toEqual({ value: null, at: 2000 });
    expect(limitsAt(removal, 3000)).toEqual({ limit: null, pending: null });
  });
});
