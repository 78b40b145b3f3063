import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ageOn, DateOfBirthSchema, parseDay } from '../../contract/age';
import { londonToday } from '../../contract/londonTime';

// Age in UK time (docs/product.md#age-checks): the birthday begins at midnight in London, whatever
// the server's or the browser's clock zone.

describe('age checks', () => {
  it('counts the birthday from midnight in London, in summer and winter time', () => {
    // 23:30 UTC on 29 March 2026 is 00:30 BST on 30 March.
    expect(londonToday(Date.parse('2026-03-29T23:30:00Z'))).toBe('2026-03-30');
    expect(ageOn('2008-03-30', Date.parse('2026-03-29T23:30:00Z'))).toBe(18);
    expect(ageOn('2008-03-30', Date.parse('2026-03-29T22:30:00Z'))).toBe(17);
    // In winter London is on UTC.
    expect(ageOn('2008-12-01', Date.parse('2026-11-30T23:59:59Z'))).toBe(17);
    expect(ageOn('2008-12-01', Date.parse('2026-12-01T00:00:00Z'))).toBe(18);
  });

  it('a 29 February birthday is 18 on 1 March in a common year', () => {
    expect(ageOn('2008-02-29', Date.parse('2026-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', Date.parse('2026-03-01T12:00:00Z'))).toBe(18);
  });

  it('accepts only real YYYY-MM-DD dates', () => {
    expect(parseDay('1990-04-01')).not.toBeNull();
    for (const bad of ['1990-02-30', '1990-4-1', '01/04/1990', '1990-04-01T00:00', ''])
      expect(parseDay(bad), bad).toBeNull();
    const issue = (d: unknown) => v.safeParse(DateOfBirthSchema, { dateOfBirth: d }).issues?.[0]?.message;
    expect(issue('1990-04-01')).toBeUndefined();
    expect(issue('1899-12-31')).toBe('Enter your date of birth as a real date (YYYY-MM-DD)');
    expect(issue(19900401)).toBe('Enter your date of birth as a real date (YYYY-MM-DD)');
  });
});
