import { REFERRAL_CODE_PATTERN } from '../../contract/referrals';

// The referral code of the link a visitor arrived by (?ref=CODE, docs/product.md#referrals), kept
// for the tab's session so the registration sends it even after browsing other pages first.

const KEY = 'referralCode';

/** Keeps a well-formed ?ref= of this address; called once when the app starts. */
export function keepReferralFromUrl(search = window.location.search): void {
  const code = new URLSearchParams(search).get('ref')?.trim();
  if (!code || !REFERRAL_CODE_PATTERN.test(code)) return;
  try {
    sessionStorage.setItem(KEY, code.toUpperCase());
  } catch {
    // Storage refused (private mode): the code is simply not kept.
  }
}

/** The kept code, if any. */
export function keptReferralCode(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Forgets the code once an account has been opened with it. */
export function forgetReferralCode(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
