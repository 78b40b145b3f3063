import { createHmac, timingSafeEqual } from 'node:crypto';
import { MARKETING_KINDS, type MarketingKind } from '../../../contract/marketing';

// The one-click unsubscribe token (docs/emails.md#one-click-unsubscribe): it names the customer,
// the kind of message and the campaign it came in, signed with HMAC-SHA-256 under a key derived
// from the app's secret (SESSION_SECRET). Anything changed in it, or a token made with another
// secret, fails the check. It never expires: an old e-mail's link still unsubscribes.

export interface UnsubscribeClaim {
  userId: number;
  kind: MarketingKind;
  /** The campaign whose e-mail carried the link (the Campaigns page counts unsubscribes by it). */
  campaignId: number | null;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('marketing-unsubscribe-v1').digest();

const mac = (secret: string, payload: string) =>
  createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

/** `<customer>.<kind>.<campaign>.<signature>`: URL-safe as it stands. */
export function signUnsubscribeToken(secret: string, claim: UnsubscribeClaim): string {
  const payload = `${claim.userId}.${claim.kind}.${claim.campaignId ?? 0}`;
  return `${payload}.${mac(secret, payload)}`;
}

/** The claim of a token signed with `secret`, or null when it is malformed or tampered with. */
export function verifyUnsubscribeToken(secret: string, token: string): UnsubscribeClaim | null {
  const match = /^([1-9]\d{0,9})\.([a-z-]{1,32})\.(0|[1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const [, user, kind, campaign, signature] = match;
  const expected = Buffer.from(mac(secret, `${user}.${kind}.${campaign}`));
  const given = Buffer.from(signature!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (!(MARKETING_KINDS as readonly string[]).includes(kind!)) return null;
  return {
    userId: Number(user),
    kind: kind as MarketingKind,
    campaignId: Number(campaign) || null,
  };
}
