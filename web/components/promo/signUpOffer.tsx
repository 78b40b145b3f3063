import { useEffect } from 'react';
import { formatUkDateTime } from '../../../contract/londonTime';
import { CREDIT_MINIMUM_SPEND_PENCE, formatPence, formatPounds } from '../../../contract/money';
import type { SignUpOffer } from '../../../contract/site';
import { useAuth } from '../../stores/auth';
import { usePromotions } from '../../stores/promotions';

// Every word of the sign-up offer comes from the live promotion (docs/product.md#sign-up-offer):
// with none running, nothing is said. The wording leaves out when the credit arrives (the account
// or its e-mail confirmation), so it stays true either way.

export const CREDIT_MINIMUM_SPEND_TEXT = `Site credit can be used on baskets of ${formatPence(CREDIT_MINIMUM_SPEND_PENCE)} or more.`;

/** '£5.00 site credit when you open an account and confirm your e-mail' */
export const offerSummary = (offer: SignUpOffer) =>
  `${formatPounds(offer.creditAmount)} site credit when you open an account and confirm your e-mail`;

/** 'Offer ends 31 December 2026 at 23:59 (UK time).', or '' when it has no end date. */
export const offerEnds = (offer: SignUpOffer) =>
  offer.validUntil ? `Offer ends ${formatUkDateTime(offer.validUntil)}.` : '';

/** The banner's and hero's sentence: amount, end date (if any) and the minimum spend for credit. */
export const offerLine = (offer: SignUpOffer) =>
  [`New customers: ${offerSummary(offer)}.`, offerEnds(offer), CREDIT_MINIMUM_SPEND_TEXT]
    .filter(Boolean)
    .join(' ');

/** The live sign-up offer, or null while unknown and when there is none. */
export function useSignUpOffer(): SignUpOffer | null {
  const offer = usePromotions((s) => s.signUpOffer);
  const load = usePromotions((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return offer ?? null;
}

/** The offer for the banner and hero: only to a visitor known to be signed out. */
export function useSignUpOfferForVisitor(): SignUpOffer | null {
  const offer = useSignUpOffer();
  const signedOut = useAuth((s) => s.status === 'ready' && s.user === null);
  return signedOut ? offer : null;
}
