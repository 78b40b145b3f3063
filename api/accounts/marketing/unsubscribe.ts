import type { Knex } from 'knex';
import { UNSUBSCRIBE_LINK_INVALID, UNSUBSCRIBED_MESSAGE } from '../../../contract/marketing';
import { lockRows } from '../../../db/locks';
import { badRequest } from '../../platform/errors';
import { type UnsubscribeClaim, verifyUnsubscribeToken } from './unsubscribeTokens';

// One-click unsubscribe (RFC 8058, docs/emails.md#one-click-unsubscribe). The POST needs no
// session and no CSRF token: the signed token is the authority, and all it can do is turn
// marketing off for the customer it names. A GET changes nothing (mail scanners follow links):
// it shows the page that asks, or says it is done, with the way back in.

/** The token's claim; 400 when it is not one this site signed. */
export function claimOf(secret: string, token: string): UnsubscribeClaim {
  const claim = verifyUnsubscribeToken(secret, token);
  if (!claim) throw badRequest(UNSUBSCRIBE_LINK_INVALID);
  return claim;
}

/**
 * Turns marketing off for the token's customer (recording when, as any change of consent is) and
 * records the unsubscribe against the campaign the link came in. Repeating it changes nothing.
 */
export async function unsubscribe(db: Knex, claim: UnsubscribeClaim, now = Date.now()): Promise<void> {
  await db.transaction(async (trx) => {
    const user = (await lockRows(
      trx,
      'user',
      trx('users').where('id', claim.userId).whereNull('deletedAt').first('id', 'marketingEmails'),
    )) as { id: number; marketingEmails: number | boolean } | undefined;
    if (!user?.marketingEmails) return;
    await trx('users')
      .where('id', claim.userId)
      .update({ marketingEmails: false, marketingEmailsUpdatedAt: now });
    await trx('marketingUnsubscribes').insert({
      userId: claim.userId,
      kind: claim.kind,
      campaignId: claim.campaignId,
      createdAt: now,
    });
  });
}

/** Whether the token's customer still gets marketing e-mails (what the GET page offers). */
export async function stillSubscribed(db: Knex, claim: UnsubscribeClaim): Promise<boolean> {
  const row = await db('users').where('id', claim.userId).whereNull('deletedAt').first('marketingEmails');
  return Boolean(row?.marketingEmails);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export type UnsubscribePageState = 'ask' | 'done' | 'invalid';

/** The small page a browser gets for the link: ask (a button that POSTs), done, or not valid. */
export function unsubscribePage(siteName: string, state: UnsubscribePageState, token: string): string {
  const site = escapeHtml(siteName);
  const action = `/api/unsubscribe?token=${encodeURIComponent(token)}`;
  const body =
    state === 'ask'
      ? `<h1>Unsubscribe from ${site} e-mails?</h1>
<p>You will get no more e-mails about new competitions or competitions ending soon. E-mails about your orders and prizes still come.</p>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Unsubscribe</button></form>`
      : state === 'done'
        ? `<h1>You're unsubscribed</h1>
<p>${escapeHtml(UNSUBSCRIBED_MESSAGE)} E-mails about your orders and prizes still come.</p>`
        : `<h1>${escapeHtml(UNSUBSCRIBE_LINK_INVALID)}</h1>
<p>It may have been copied incompletely. You can turn marketing e-mails off in My Profile.</p>`;
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>E-mail preferences | ${site}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2733}button{font:inherit;padding:.6rem 1.2rem;cursor:pointer}</style>
</head><body>
${body}
<p>Changed your mind? <a href="/profile">Sign in and choose your e-mails in My Profile</a>, under Privacy.</p>
<p><a href="/">Back to ${site}</a></p>
</body></html>`;
}
