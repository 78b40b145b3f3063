import { offerEnds, offerSummary } from '../../components/promo/signUpOffer';
import { usePromotions } from '../../stores/promotions';
import { useSite, useSiteName } from '../../stores/site';
import { SupportEmailLink } from './StaticParts';

// The live facts the static pages' copy names, as small components: the copy itself is data at
// module level (termsContent, privacyContent, faqContent), and these fill in the current values.

/** The brand name from Site Settings. */
export function SiteName() {
  return useSiteName();
}

/** The support address, as a mailto link. */
export function SupportEmail() {
  return <SupportEmailLink email={useSite((s) => s.supportEmail)} />;
}

/** The running sign-up offer (the page asks for it); copy about it is shown only while one runs. */
const useOffer = () => usePromotions((s) => s.signUpOffer ?? null);

/** '£5.00 site credit when you open an account and confirm your e-mail' */
export function OfferSummary() {
  const offer = useOffer();
  return offer && offerSummary(offer);
}

/** 'Offer ends … (UK time).', or nothing when the offer has no end date. */
export function OfferEnds() {
  const offer = useOffer();
  return offer && offerEnds(offer);
}

/**
 * Who the promoter is, from Site Settings: its name, company number, registered address, phone and
 * e-mail. Until they are set (no competition can be active then), the site's name.
 */
export function PromoterFacts() {
  const siteName = useSiteName();
  const { name, companyNumber, address, phone, email } = useSite((s) => s.promoter);
  if (!name) return siteName;
  return (
    <span data-testid="promoter-facts">
      {name}
      {companyNumber && `, a company registered under number ${companyNumber}`}
      {address && `, whose registered address is ${address.replace(/\s*\n\s*/g, ', ')}`}
      {phone && `; telephone ${phone}`}
      {email && (
        <>
          ; e-mail <SupportEmailLink email={email} />
        </>
      )}
    </span>
  );
}
