// Admin tables show dates compactly, in Europe/London like the rest of the site.

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});
const shortDate = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/** '22 Nov 2026, 14:05' */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** '22 Nov 2026' */
export const formatShortDate = (iso: string) => shortDate.format(new Date(iso));

/** 'Sarah Trelawny', or '' when neither name is known. */
export const fullName = (u: { firstName: string | null; lastName: string | null }) =>
  [u.firstName, u.lastName].filter(Boolean).join(' ');
