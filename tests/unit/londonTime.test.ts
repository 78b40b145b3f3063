import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDateTime,
  formatDayAndTime,
  formatLongDate,
  formatShortDate,
  formatUkDateTime,
  fromLondonFields,
  londonDayOf,
  londonMidnight,
  londonToday,
  nextDay,
  toLondonFields,
} from '../../contract/londonTime';
import { skillLockedMessage } from '../../contract/skill';

// Every date and time anyone reads is UK wall-clock time, whatever the zone of the server, the
// browser or this test run: GMT in winter, BST (UTC+1) in summer.

const WINTER = '2026-11-29T20:00:00.000Z';
const SUMMER = '2026-07-30T19:00:00.000Z';
/** 23:30 UTC on 30 June is already 1 July in London (BST). */
const SUMMER_NEAR_MIDNIGHT = '2026-06-30T23:30:00.000Z';

describe('London-time formats', () => {
  it('writes a customer-facing closing or draw time with its zone, in GMT and in BST', () => {
    expect(formatUkDateTime(WINTER)).toBe('29 November 2026 at 20:00 (UK time)');
    expect(formatUkDateTime(SUMMER)).toBe('30 July 2026 at 20:00 (UK time)');
  });

  it('puts an instant near midnight on the London day, not the UTC one', () => {
    expect(formatLongDate(SUMMER_NEAR_MIDNIGHT)).toBe('1 July 2026');
    expect(formatClock(SUMMER_NEAR_MIDNIGHT)).toBe('00:30');
    expect(formatShortDate(SUMMER_NEAR_MIDNIGHT)).toBe('1 Jul 2026');
    expect(londonDayOf(Date.parse(SUMMER_NEAR_MIDNIGHT))).toBe('2026-07-01');
  });

  it('takes ISO text, epoch milliseconds and Dates alike', () => {
    expect(formatLongDate(Date.parse(WINTER))).toBe('29 November 2026');
    expect(formatLongDate(new Date(WINTER))).toBe('29 November 2026');
  });

  it('gives the admin tables their compact date and time', () => {
    expect(formatDateTime('2026-11-22T14:05:00.000Z')).toBe('22 Nov 2026, 14:05');
    expect(formatDateTime('2026-07-22T14:05:00.000Z')).toBe('22 Jul 2026, 15:05');
  });

  it('names the weekday for the end of a break', () => {
    expect(formatDayAndTime('2026-12-05T18:30:00.000Z')).toBe('Saturday 5 December 2026 at 18:30');
    expect(formatDayAndTime('2026-07-05T18:30:00.000Z')).toBe('Sunday 5 July 2026 at 19:30');
  });

  it('tells a locked-out visitor when to try again, in UK time', () => {
    expect(skillLockedMessage(2, new Date('2026-11-24T14:05:00.000Z'))).toBe(
      'You have used all 2 attempts at this skill question. You can try again after 14:05 on 24 November 2026 (UK time).',
    );
    expect(skillLockedMessage(1, new Date(SUMMER_NEAR_MIDNIGHT))).toBe(
      'You have used 1 attempt at this skill question. You can try again after 00:30 on 1 July 2026 (UK time).',
    );
  });
});

describe('London wall-clock time for the draw date', () => {
  it('reads winter dates as GMT and summer dates as BST', () => {
    expect(new Date(fromLondonFields('2026-01-15', '20:00')).toISOString()).toBe('2026-01-15T20:00:00.000Z');
    expect(new Date(fromLondonFields('2026-07-15', '20:00')).toISOString()).toBe('2026-07-15T19:00:00.000Z');
  });

  it('round-trips through the form fields', () => {
    for (const iso of ['2026-03-29T00:30:00.000Z', '2026-10-25T12:00:00.000Z', '2027-06-01T23:15:00.000Z']) {
      const { date, time } = toLondonFields(iso);
      expect(new Date(fromLondonFields(date, time)).toISOString()).toBe(iso);
    }
  });

  it('gives NaN for incomplete input and London today near midnight', () => {
    expect(fromLondonFields('2026-01-15', '')).toBeNaN();
    // 23:30 UTC on 30 June is already 1 July in London (BST).
    expect(londonToday(Date.parse('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
  });
});

describe('London calendar days', () => {
  it('starts a day at London midnight, also across the clock changes', () => {
    expect(new Date(londonMidnight('2026-01-15')).toISOString()).toBe('2026-01-15T00:00:00.000Z');
    expect(new Date(londonMidnight('2026-07-15')).toISOString()).toBe('2026-07-14T23:00:00.000Z');
    expect(nextDay('2026-03-28')).toBe('2026-03-29');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
