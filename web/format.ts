// Dates on screen: en-GB, Europe/London, whatever the device's own time zone.
const longDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});
const ukTime = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'Europe/London',
});

/** '22 November 2026' */
export const formatLongDate = (iso: string) => longDate.format(new Date(iso));

/**
 * '29 November 2026 at 20:00 (UK time)': every closing and draw time a customer sees, so it reads
 * the same as the admin's draw time whatever the device's zone (docs/product.md#conventions).
 */
export const formatUkDateTime = (iso: string) => {
  const at = new Date(iso);
  return `${longDate.format(at)} at ${ukTime.format(at)} (UK time)`;
};
