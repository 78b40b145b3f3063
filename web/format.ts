// Dates on screen: en-GB, Europe/London, whatever the device's own time zone.
const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** '22 November 2026' */
export const formatLongDate = (iso: string) => longDate.format(new Date(iso));
