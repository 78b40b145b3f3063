// UK wall-clock time (Europe/London), whatever the device or server is set to: every date and time
// a customer, an admin or an e-mail reads, the admin's date fields (draw days and times as a person
// in the UK reads them) and the UK days the sales statistics group by. The one home for these:
// server and browser format the same instant the same way.

const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function londonParts(ms: number) {
  const p = Object.fromEntries(parts.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** An instant as the form's date (yyyy-mm-dd) and time (hh:mm) fields, in London time. */
export const toLondonFields = (iso: string) => londonParts(Date.parse(iso));

/** Today's date in London (the first day the calendar offers). */
export const londonToday = (now = Date.now()) => londonParts(now).date;

/** The instant of a London wall-clock date and time; NaN for incomplete input. */
export function fromLondonFields(date: string, time: string): number {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return Number.NaN;
  const asUtc = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +t[1]!, +t[2]!);
  // London is UTC or UTC+1: try both offsets and keep the one that reads back as typed.
  for (const offsetHours of [0, 1]) {
    const ms = asUtc - offsetHours * 3_600_000;
    const back = londonParts(ms);
    if (back.date === date && back.time === time) return ms;
  }
  // A time skipped by the spring clock change: read it as GMT.
  return asUtc;
}

/** The London calendar day (yyyy-mm-dd) an instant falls on. */
export const londonDayOf = (ms: number): string => londonParts(ms).date;

/** The day after a yyyy-mm-dd date. */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** The instant a London calendar day starts (midnight is never skipped by the UK clock changes). */
export const londonMidnight = (date: string): number => fromLondonFields(date, '00:00');

/** An instant: ISO 8601 text (as every API answer carries), epoch milliseconds or a Date. */
export type Instant = string | number | Date;

const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});
const clock = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});
const weekdayDate = new Intl.DateTimeFormat('en-GB', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});
const compactDateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});
const compactDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** '22 November 2026' */
export const formatLongDate = (at: Instant) => longDate.format(new Date(at));

/** '14:05' (24-hour clock) */
export const formatClock = (at: Instant) => clock.format(new Date(at));

const clockSeconds = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});

const dayMonth = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  timeZone: 'Europe/London',
});
const shortDayMonth = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'Europe/London',
});

/** '19:00 on 28 November': when a scheduled competition opens, as its refusal says it. */
export const formatOpening = (at: Instant) => `${formatClock(at)} on ${dayMonth.format(new Date(at))}`;

/** '28 Nov at 19:00': the opening on a scheduled competition's page. */
export const formatOpensShort = (at: Instant) =>
  `${shortDayMonth.format(new Date(at))} at ${formatClock(at)}`;

/** '5 December at 20:00': an extended competition's new end, as its page and e-mail say it. */
export const formatDayMonthAt = (at: Instant) => `${dayMonth.format(new Date(at))} at ${formatClock(at)}`;

/** '20:00:31': a beacon round's time in the draw room, to the second. */
export const formatClockSeconds = (at: Instant) => clockSeconds.format(new Date(at));

/**
 * '29 November 2026 at 20:00 (UK time)': every closing and draw time a customer sees, so it reads
 * the same as the admin's draw time whatever the device's zone (docs/product.md#conventions).
 */
export const formatUkDateTime = (at: Instant) => `${formatLongDate(at)} at ${formatClock(at)} (UK time)`;

/** 'Saturday 5 December 2026 at 18:30' (day and time apart: ICU versions join them differently). */
export const formatDayAndTime = (at: Instant) =>
  `${weekdayDate.format(new Date(at)).replace(',', '')} at ${formatClock(at)}`;

/** '22 Nov 2026, 14:05': the admin tables' compact date and time. */
export const formatDateTime = (at: Instant) => compactDateTime.format(new Date(at));

/** '22 Nov 2026' */
export const formatShortDate = (at: Instant) => compactDate.format(new Date(at));
