import { formatOrderNumber } from '../../contract/checkout';
import { formatPence } from '../../contract/money';
import type { User } from '../../db/models';
import type { MailMessage } from '../platform/mailer';
import type { OrderWithItems } from './presenter';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const longDate = (ms: number) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(new Date(ms));

/** The order confirmation e-mail: order number, date, every line with its numbers, and the totals. */
export function confirmationEmail(order: OrderWithItems, user: User, siteName: string): MailMessage {
  const number = formatOrderNumber(order.id);
  const items = [...(order.items ?? [])].sort((a, b) => a.id - b.id);
  const lines = items.map((i) => {
    const numbers = [...i.selectedNumbers].sort((a, b) => a - b).join(', ');
    const tickets = `${i.quantity} ${i.quantity === 1 ? 'ticket' : 'tickets'}`;
    return { title: i.title, tickets, numbers, total: formatPence(i.ticketPricePence * i.quantity) };
  });
  const totals: Array<[string, string]> = [['Subtotal', formatPence(order.subtotalPence)]];
  if (order.creditAppliedPence > 0) totals.push(['Site credit', `-${formatPence(order.creditAppliedPence)}`]);
  totals.push(['Paid by card', formatPence(order.totalPence)]);
  const name = user.firstName || user.username;
  const date = longDate(order.paidAt ?? order.createdAt);

  const text = [
    `Hello ${name},`,
    '',
    `Thank you for entering with ${siteName}. Your order is confirmed.`,
    '',
    `Order number: ${number}`,
    `Date: ${date}`,
    '',
    ...lines.flatMap((l) => [`${l.title}: ${l.tickets}, ${l.total}`, `  Your numbers: ${l.numbers}`]),
    '',
    ...totals.map(([k, v]) => `${k}: ${v}`),
    ...(order.notice ? ['', order.notice] : []),
    '',
    'Good luck!',
    siteName,
  ].join('\n');

  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1a1a1a">
<p>Hello ${escapeHtml(name)},</p>
<p>Thank you for entering with ${escapeHtml(siteName)}. Your order is confirmed.</p>
<p><strong>Order number:</strong> ${number}<br><strong>Date:</strong> ${escapeHtml(date)}</p>
<table cellpadding="6" style="border-collapse:collapse">
${lines
  .map(
    (l) =>
      `<tr><td><strong>${escapeHtml(l.title)}</strong><br>Your numbers: ${escapeHtml(l.numbers)}</td><td>${l.tickets}</td><td align="right">${escapeHtml(l.total)}</td></tr>`,
  )
  .join('\n')}
${totals.map(([k, v]) => `<tr><td colspan="2">${k}</td><td align="right">${escapeHtml(v)}</td></tr>`).join('\n')}
</table>
${order.notice ? `<p>${escapeHtml(order.notice)}</p>` : ''}
<p>Good luck!<br>${escapeHtml(siteName)}</p>
</body></html>`;

  return { to: user.email, subject: `Your ${siteName} order ${number} is confirmed`, text, html };
}

/**
 * The payment went back: sent when the reconciler settles a payment by refunding it, since the
 * customer's own request may have died with the process and told them nothing.
 */
export function refundEmail(
  order: OrderWithItems,
  user: User,
  siteName: string,
  reason: string,
): MailMessage {
  const number = formatOrderNumber(order.id);
  const name = user.firstName || user.username;
  const amount = formatPence(order.totalPence);
  const lines = [
    `Hello ${name},`,
    `Your payment of ${amount} for order ${number} has been refunded in full. No tickets were bought with it.`,
    reason,
    'The refund usually reaches your card within 5 to 10 working days.',
  ];
  const text = [...lines.flatMap((l) => [l, '']), siteName].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1a1a1a">
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p>${escapeHtml(siteName)}</p>
</body></html>`;
  return {
    to: user.email,
    subject: `Your ${siteName} payment for order ${number} has been refunded`,
    text,
    html,
  };
}
