import { describe, expect, it } from 'vitest';
import { nextAllowedAt } from '../../api/accounts/marketing/campaigns';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '../../api/accounts/marketing/unsubscribeTokens';

// The daily allowance of marketing e-mails and the unsubscribe token (docs/emails.md#marketing-e-mails).

const DAY = 86_400_000;

describe('nextAllowedAt', () => {
  it('is now while the customer is under MARKETING_EMAILS_PER_DAY in the last 24 hours', () => {
    expect(nextAllowedAt([], 1, 1000)).toBe(1000);
    expect(nextAllowedAt([500], 2, 1000)).toBe(1000);
  });
  it('is a day after the oldest of the last allowance-many, at it', () => {
    expect(nextAllowedAt([500], 1, 1000)).toBe(500 + DAY);
    expect(nextAllowedAt([100, 500], 2, 1000)).toBe(100 + DAY);
    // One already waiting counts: the next waits a day after it.
    expect(nextAllowedAt([500, 500 + DAY], 1, 1000)).toBe(500 + 2 * DAY);
  });
});

describe('the unsubscribe token', () => {
  const secret = 'a-session-secret-for-the-test-0123456789';
  const token = signUnsubscribeToken(secret, { userId: 7, kind: 'ending-soon', campaignId: 3 });
  it('names the customer, the kind and the campaign, and checks out under its secret', () => {
    expect(verifyUnsubscribeToken(secret, token)).toEqual({ userId: 7, kind: 'ending-soon', campaignId: 3 });
  });
  it('fails under another secret, or with any part changed', () => {
    expect(verifyUnsubscribeToken(`${secret}x`, token)).toBeNull();
    const [, kind, campaign, sig] = token.split('.');
    expect(verifyUnsubscribeToken(secret, `8.${kind}.${campaign}.${sig}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `7.new-competition.${campaign}.${sig}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `7.${kind}.4.${sig}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${token}x`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, '')).toBeNull();
  });
});
