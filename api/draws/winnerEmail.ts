import type { MailMessage } from '../platform/mailer';
import type { DrawRecord } from './presenter';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const longDate = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Europe/London',
  }).format(new Date(Number(ms)));

/** The winner's e-mail: which competition, the winning number, and how to check the draw. */
export function winnerEmail(record: DrawRecord, siteName: string): MailMessage {
  const name = record.firstName?.trim() || record.username || 'there';
  const date = longDate(record.drawnAt);
  const link = `/competitions/${record.competitionId}`;
  const text = [
    `Hello ${name},`,
    '',
    `Congratulations! You have won "${record.title}" with ${siteName}.`,
    '',
    `Winning ticket number: ${record.winningNumber}`,
    `Drawn: ${date} (UK time)`,
    '',
    "We will be in touch about delivering your prize. The draw's seed and entries are published on",
    `the competition page (${link}) so anyone can check the result.`,
    '',
    siteName,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1a1a1a">
<p>Hello ${escapeHtml(name)},</p>
<p><strong>Congratulations!</strong> You have won <strong>${escapeHtml(record.title)}</strong> with ${escapeHtml(siteName)}.</p>
<p><strong>Winning ticket number:</strong> ${record.winningNumber}<br><strong>Drawn:</strong> ${escapeHtml(date)} (UK time)</p>
<p>We will be in touch about delivering your prize. The draw's seed and entries are published on the
competition page (${escapeHtml(link)}) so anyone can check the result.</p>
<p>${escapeHtml(siteName)}</p>
</body></html>`;
  return { to: record.email ?? '', subject: `You won "${record.title}" with ${siteName}!`, text, html };
}
