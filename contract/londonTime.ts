// UK wall-clock time (Europe/London), whatever the device or server is set to: the admin picks draw
// days and times as a person in the UK reads them, and sales statistics group by UK days.

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
