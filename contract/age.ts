import { differenceInYears, format, isValid, parse } from 'date-fns';
import * as v from 'valibot';
import { londonToday } from './londonTime';

// Age checks (docs/product.md#age-checks): entrants must be 18 or over. The date of birth is a
// calendar date (YYYY-MM-DD); age is counted against today's date in the UK, whatever the time
// zone of the server or the browser.

export const MINIMUM_AGE = 18;
export const UNDER_AGE_MESSAGE = 'You must be 18 or over to enter.';
export const DATE_OF_BIRTH_LABEL = 'Date of birth';
/** The 403 `date_of_birth_required` of a hold or payment by an account without a date of birth. */
export const DATE_OF_BIRTH_REQUIRED_MESSAGE = 'Please give your date of birth before buying tickets.';
export const DATE_OF_BIRTH_FIXED_MESSAGE =
  'Your date of birth is already recorded. Please contact us if it is wrong.';

const DAY = 'yyyy-MM-dd';
const INVALID = 'Enter your date of birth as a real date (YYYY-MM-DD)';

/** The date a YYYY-MM-DD text names, or null when it is no real date in that exact spelling. */
export function parseDay(text: string): Date | null {
  const day = parse(text, DAY, new Date(2000, 0, 1));
  return isValid(day) && format(day, DAY) === text ? day : null;
}

/** Whole years between a date of birth and the UK date at `now`. */
export function ageOn(dateOfBirth: string, now: number = Date.now()): number {
  const born = parseDay(dateOfBirth);
  const today = parseDay(londonToday(now));
  if (!born || !today) throw new Error(`not a date: ${dateOfBirth}`);
  return differenceInYears(today, born);
}

/** The date of birth a customer types: a real, past date, and 18 or more years ago in the UK. */
export const DATE_OF_BIRTH_RULES = v.pipe(
  v.string(INVALID),
  v.trim(),
  v.nonEmpty('Date of birth is required'),
  v.check((s) => parseDay(s) !== null && s >= '1900-01-01', INVALID),
  // valibot runs every check of a pipe; the later ones skip what the first already refused.
  v.check((s) => parseDay(s) === null || s <= londonToday(), 'Your date of birth cannot be in the future'),
  v.check((s) => parseDay(s) === null || s > londonToday() || ageOn(s) >= MINIMUM_AGE, UNDER_AGE_MESSAGE),
);

/** PUT /api/account/date-of-birth: once, by an account that has none yet. */
export const DateOfBirthSchema = v.object({ dateOfBirth: DATE_OF_BIRTH_RULES });

/** 409 when a prize over the age-check threshold is marked delivered before the winner's age check. */
export const AGE_CHECK_BEFORE_DELIVERY =
  "The winner's age must be verified before this prize is marked delivered. Check an identity document, then mark the account age-verified in Users.";
