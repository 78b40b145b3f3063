import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../api/platform/email/render';
import type { Brand, EmailTemplate } from '../../api/platform/email/template';
import {
  emailChangedEmail,
  passwordChangedEmail,
  passwordResetEmail,
  twoFactorOnEmail,
  verificationEmail,
  welcomeEmail,
} from '../../api/platform/email/templates/accounts';
import { drawResultEmail, winnerEmail } from '../../api/platform/email/templates/draws';
import { instantWinEmail } from '../../api/platform/email/templates/instantWins';
import { orderCancelledEmail, orderConfirmationEmail } from '../../api/platform/email/templates/orders';

// Every e-mail renders in the shared layout with an HTML and a plain-text part, the site's name,
// the support address, and absolute links to the site.

const brand: Brand = {
  siteName: 'Westcountry Prizes',
  supportEmail: 'help@westcountry.test',
  publicUrl: 'https://shop.westcountry.test',
};
// 14:30 UTC on 1 July 2026 is 15:30 in London (BST).
const at = Date.UTC(2026, 6, 1, 14, 30);

const cases: Array<[EmailTemplate<never>, unknown, string, string[]]> = [
  [
    orderConfirmationEmail as EmailTemplate<never>,
    {
      name: 'Pat',
      orderNumber: 'ORD-0000000042',
      placedAt: at,
      lines: [{ title: 'Dream Car', quantity: 2, numbers: [17, 3], totalPence: 598 }],
      subtotalPence: 598,
      creditAppliedPence: 100,
      totalPence: 498,
      notice: null,
      orderLink: '/confirmation/42',
    },
    'Your Westcountry Prizes order ORD-0000000042 is confirmed',
    [
      'Hello Pat',
      'Your numbers: 3, 17',
      '£5.98',
      'Site credit: -£1.00',
      'Paid by card: £4.98',
      'https://shop.westcountry.test/confirmation/42',
    ],
  ],
  [
    winnerEmail as EmailTemplate<never>,
    {
      name: 'Pat',
      title: 'Dream Car',
      winningNumber: 17,
      drawnAt: at,
      verifyLink: '/competitions/9#verify-draw',
    },
    'You won "Dream Car" with Westcountry Prizes!',
    [
      'Winning ticket number: 17',
      '1 July 2026 at 15:30',
      'https://shop.westcountry.test/competitions/9#verify-draw',
    ],
  ],
  [
    instantWinEmail as EmailTemplate<never>,
    {
      name: 'Pat',
      competitionTitle: 'Dream Car',
      prizeTitle: '£5 site credit',
      number: 17,
      kind: 'credit',
      amountPence: 500,
      description: null,
      orderLink: '/confirmation/42',
    },
    'You won instantly with Westcountry Prizes: £5 site credit!',
    [
      'You won instantly!',
      'Winning ticket number: 17',
      'Site credit added: £5.00',
      'https://shop.westcountry.test/confirmation/42',
    ],
  ],
  [
    drawResultEmail as EmailTemplate<never>,
    {
      name: 'Sam',
      title: 'Dream Car',
      winningNumber: 17,
      drawnAt: at,
      verifyLink: '/competitions/9#verify-draw',
      yourNumbers: [40, 2],
    },
    'The draw for Dream Car has been made: the winning number is 17',
    ['Your numbers: 2, 40', 'https://shop.westcountry.test/competitions/9#verify-draw'],
  ],
  [
    verificationEmail as EmailTemplate<never>,
    { name: 'Pat', link: '/verify-email?token=abc123', expiresAt: at },
    'Please confirm your e-mail address for Westcountry Prizes',
    ['https://shop.westcountry.test/verify-email?token=abc123', 'expires on 1 July 2026 at 15:30'],
  ],
  [
    welcomeEmail as EmailTemplate<never>,
    { name: 'Pat', creditPence: 500 },
    'Welcome to Westcountry Prizes',
    ['£5.00 of site credit', 'https://shop.westcountry.test/competitions'],
  ],
  [
    passwordResetEmail as EmailTemplate<never>,
    { name: 'Pat', link: 'https://shop.westcountry.test/reset-password?token=xyz', expiresAt: at },
    'Reset your Westcountry Prizes password',
    [
      'https://shop.westcountry.test/reset-password?token=xyz',
      'expires on 1 July 2026 at 15:30',
      'a two-factor code you never set up',
    ],
  ],
  [
    twoFactorOnEmail as EmailTemplate<never>,
    { name: 'Pat', link: '/two-factor-not-me?token=v1.1.2.3.mac', expiresAt: at, changedAt: at },
    'Two-factor sign-in was turned on for your Westcountry Prizes account',
    [
      'https://shop.westcountry.test/two-factor-not-me?token=v1.1.2.3.mac',
      "This wasn't me",
      'signs out every session',
    ],
  ],
  [
    passwordChangedEmail as EmailTemplate<never>,
    { name: 'Pat', changedAt: at },
    'Your Westcountry Prizes password has been changed',
    ['changed on 1 July 2026 at 15:30', 'If you did not make this change'],
  ],
  [
    emailChangedEmail as EmailTemplate<never>,
    { name: 'Pat', changedAt: at, newEmail: 'new@example.test' },
    'The e-mail address of your Westcountry Prizes account is changing',
    ['new@example.test', 'If you did not make this change'],
  ],
];

describe('e-mail templates', () => {
  it.each(
    cases.map(([template, props, subject, texts]) => ({
      name: template.name,
      template,
      props,
      subject,
      texts,
    })),
  )('$name: both parts, in the shared layout', async ({ template, props, subject, texts }) => {
    const mail = await renderEmail(template, props as never, brand);
    expect(mail.subject).toBe(subject);
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
    expect(mail.html).toContain('lang="en-GB"');
    expect(mail.text).not.toContain('<');
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain('Westcountry Prizes');
      expect(part).toContain('help@westcountry.test');
    }
    expect(mail.html).toContain('href="mailto:help@westcountry.test"');
    for (const t of texts) expect(mail.text).toContain(t);
    // Every link is absolute: a mail client has no page to resolve a path against.
    const hrefs = [...mail.html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
    expect(hrefs.length).toBeGreaterThan(1);
    for (const h of hrefs) expect(h).toMatch(/^(https:\/\/shop\.westcountry\.test|mailto:)/);
  });

  it('names the promoter at the foot when Site Settings have one, and not before', async () => {
    const promoter = {
      name: 'Example Competitions Ltd',
      companyNumber: 'SC123456',
      address: '1 Example Street\nTruro\nTR1 9ZZ',
      phone: '01632 960123',
      email: 'promoter@example.com',
    };
    const mail = await renderEmail(
      passwordChangedEmail,
      { name: 'Pat', changedAt: at },
      { ...brand, promoter },
    );
    expect(mail.text).toContain(
      'Promoter: Example Competitions Ltd · Company number SC123456 · 1 Example Street, Truro, TR1 9ZZ · ' +
        'Phone 01632 960123 · promoter@example.com',
    );
    const unnamed = { name: null, companyNumber: null, address: null, phone: null, email: null };
    const before = await renderEmail(
      passwordChangedEmail,
      { name: 'Pat', changedAt: at },
      { ...brand, promoter: unnamed },
    );
    expect(before.text).not.toContain('Promoter:');
  });

  it('escapes what customers typed: a name is text, never markup', async () => {
    const mail = await renderEmail(passwordChangedEmail, { name: '<b>Pat</b> & co', changedAt: at }, brand);
    expect(mail.html).toContain('&lt;b&gt;Pat&lt;/b&gt; &amp; co');
    expect(mail.html).not.toContain('<b>Pat</b>');
  });

  it('says how much went back and how: the card, site credit, or nothing taken', async () => {
    const base = { name: 'Pat', orderNumber: 'ORD-0000000007', reason: 'It was cancelled by our team.' };
    const both = await renderEmail(
      orderCancelledEmail,
      {
        ...base,
        refunds: [
          { method: 'card', amountPence: 1234 },
          { method: 'site credit', amountPence: 500 },
        ],
        cardRefundPending: false,
      },
      brand,
    );
    expect(both.subject).toBe('Your Westcountry Prizes order ORD-0000000007 has been cancelled and refunded');
    expect(both.text).toContain('£12.34 has been refunded to the card you paid with.');
    expect(both.text).toContain('£5.00 has been returned to your site credit.');

    const pending = await renderEmail(
      orderCancelledEmail,
      { ...base, refunds: [{ method: 'card', amountPence: 299 }], cardRefundPending: true },
      brand,
    );
    expect(pending.text).toContain('£2.99 is being refunded to the card you paid with.');

    const nothing = await renderEmail(
      orderCancelledEmail,
      { ...base, refunds: [], cardRefundPending: false },
      brand,
    );
    expect(nothing.subject).toBe('Your Westcountry Prizes order ORD-0000000007 has been cancelled');
    expect(nothing.text).toContain('No money was taken for this order.');
  });
});
