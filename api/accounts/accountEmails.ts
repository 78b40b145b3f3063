import type { MailMessage } from '../platform/mailer';

// The account e-mails as plain text, one function per e-mail. Temporary: they move to the shared
// e-mail templates (issue #17) with the same props. The HTML part is the same text, escaped.

export interface MailSite {
  siteName: string;
  supportEmail: string;
}

export type AccountEmail = Omit<MailMessage, 'to'>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const when = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/London',
  }).format(new Date(ms));

function compose(site: MailSite, subject: string, name: string, paragraphs: string[]): AccountEmail {
  const lines = [`Hello ${name},`, ...paragraphs, `Questions? Write to ${site.supportEmail}.`, site.siteName];
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1a1a1a">${lines
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n')}</body></html>`;
  return { subject, text: lines.join('\n\n'), html };
}

export function verificationEmail(props: { name: string; link: string; expiresAt: number }, site: MailSite) {
  return compose(site, `Please confirm your e-mail address for ${site.siteName}`, props.name, [
    'Please confirm that this is your e-mail address by opening this link:',
    props.link,
    `The link works once, until ${when(props.expiresAt)}. If you did not create an account, ignore this e-mail.`,
  ]);
}

export function welcomeEmail(
  props: { name: string; link: string; welcomeCredit: string | null },
  site: MailSite,
) {
  return compose(site, `Welcome to ${site.siteName}`, props.name, [
    'Thank you for confirming your e-mail address.',
    ...(props.welcomeCredit ? [`Your welcome credit of ${props.welcomeCredit} is in your account.`] : []),
    `See the competitions: ${props.link}`,
  ]);
}

export function passwordResetEmail(props: { name: string; link: string; expiresAt: number }, site: MailSite) {
  return compose(site, `Reset your ${site.siteName} password`, props.name, [
    'Someone asked to reset the password of your account. To choose a new password, open this link:',
    props.link,
    `The link works once, until ${when(props.expiresAt)}. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
  ]);
}

export function passwordChangedEmail(
  props: { name: string; link: string; changedAt: number },
  site: MailSite,
) {
  return compose(site, `Your ${site.siteName} password was changed`, props.name, [
    `The password of your account was changed on ${when(props.changedAt)}.`,
    `If this was not you, reset your password at once: ${props.link}, and write to us.`,
  ]);
}

export function emailChangedEmail(props: { name: string; newEmail: string; link: string }, site: MailSite) {
  return compose(site, `Your ${site.siteName} e-mail address is being changed`, props.name, [
    `Someone asked to change the e-mail address of your account to ${props.newEmail}. The change takes effect when that address confirms it.`,
    `If this was not you, change your password at once: ${props.link}, and write to us.`,
  ]);
}
