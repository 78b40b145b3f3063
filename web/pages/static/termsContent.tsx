import { createContext, type ReactNode, useContext } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { formatUkDateTime } from '../../../contract/londonTime';
import type { EntryTerms } from '../../../contract/postal';
import { CREDIT_MINIMUM_SPEND_TEXT } from '../../components/promo/signUpOffer';
import { usePromotions } from '../../stores/promotions';
import { OfferSummary, PromoterFacts, SiteName, SupportEmail } from './copyFacts';

// The Terms & Conditions as data: sections of numbered clauses. The live settings they state
// (postal address, hold time, default cap, processing days, the sign-up offer) are filled in by
// the small components below, so nothing is typed into the text (docs/compliance.md).

/** A clause stated only while a welcome promotion runs. */
export interface OfferClause {
  whileOffer: ReactNode;
}

export interface TermsSection {
  title: string;
  clauses: (ReactNode | OfferClause)[];
  /** A stable anchor other pages link to, on the section's heading (the section stays section-N). */
  anchor?: string;
}

/** The live entry settings (GET /api/entry-terms) the Terms state; undefined until loaded. */
export const EntryTermsContext = createContext<EntryTerms | undefined>(undefined);

const PostalAddressBlock = styled.address`
  margin: ${({ theme }) => theme.space.xs} 0;
  font-style: normal;
  font-weight: 700;
  white-space: pre-line;
`;

function PostalAddressClause() {
  const terms = useContext(EntryTermsContext);
  return terms?.postalAddress ? (
    <>
      Send each postcard separately, with the correct postage, to:
      <PostalAddressBlock data-testid="terms-postal-address">{terms.postalAddress}</PostalAddressBlock>
      You do not need an account to enter by post.
    </>
  ) : (
    <>
      Send each postcard separately, with the correct postage, to our postal entry address. We will give the
      address to anyone who asks: email <SupportEmail />. You do not need an account to enter by post.
    </>
  );
}

function DefaultCapNote() {
  const terms = useContext(EntryTermsContext);
  return terms ? `, which is ${terms.defaultMaxTicketsPerUser} unless that page states another` : '';
}

function PostalProcessingDays() {
  return useContext(EntryTermsContext)?.postalProcessingDays ?? 'a few';
}

function HoldTime() {
  const terms = useContext(EntryTermsContext);
  return terms
    ? `${terms.holdMinutes} ${terms.holdMinutes === 1 ? 'minute' : 'minutes'}`
    : 'the time shown in your cart';
}

function OfferEndClause() {
  const validUntil = usePromotions((s) => s.signUpOffer?.validUntil);
  return validUntil
    ? `The welcome credit offer ends on ${formatUkDateTime(validUntil)}, or earlier at our discretion.`
    : 'The welcome credit offer runs until we withdraw it, which we may do at any time.';
}

/** The clauses of a section as shown now: the offer's only while one runs. */
export const clausesOf = (section: TermsSection, offerRuns: boolean): ReactNode[] =>
  section.clauses.flatMap((clause) =>
    clause !== null && typeof clause === 'object' && 'whileOffer' in clause
      ? offerRuns
        ? [clause.whileOffer]
        : []
      : [clause],
  );

export const TERMS_SECTIONS: TermsSection[] = [
  {
    title: 'The Promoter',
    clauses: [
      <>
        These terms and conditions (the "Terms") apply to every competition on this website. The promoter of
        each competition is <PromoterFacts /> ("we", "us" and "our"). <SiteName /> is the name we trade under.
      </>,
      <>
        You can contact us about any competition by emailing <SupportEmail />. We aim to reply within about 24
        hours.
      </>,
      <>
        By entering a competition, online or by post, you confirm that you have read and accept these Terms
        and any additional rules shown on that competition's page. If the competition page and these Terms
        differ, the competition page applies to that competition.
      </>,
      <>
        We may update these Terms from time to time. The version published on this page when you enter a
        competition applies to that entry.
      </>,
    ],
  },
  {
    title: 'Eligibility',
    clauses: [
      <>Competitions are open only to residents of the United Kingdom who are aged 18 or over.</>,
      <>
        We ask for your date of birth when you register (or, for older accounts, before your next purchase)
        and refuse anyone under 18. Once given, it can only be corrected by contacting us.
      </>,
      <>
        Our employees, members of their immediate families and households, and anyone professionally connected
        with running a competition, including our prize suppliers, may not enter.
      </>,
      <>
        We may ask any entrant or winner for proof of age, identity and UK residency. If you cannot provide it
        within a reasonable time, or we reasonably believe you are not eligible, your entries will be void and
        any prize will be forfeited.
      </>,
      <>
        Each person may hold only one account. Entries made through more than one account, by automated means
        or in any other way intended to get around these Terms are void.
      </>,
    ],
  },
  {
    title: 'How to Enter',
    clauses: [
      <>
        You can enter online by buying tickets on this website, or for free by post as set out in section 5.
        Both routes have an equal chance of winning.
      </>,
      <>
        To enter online, choose a competition, answer the skill question correctly, choose your ticket numbers
        or use Lucky Dip, add your tickets to your cart and complete checkout.
      </>,
      <>
        You can browse and add tickets to your cart without an account, but you must sign in or create an
        account before paying. Tickets already in your cart are carried over to your account when you
        register.
      </>,
      <>
        An online entry is complete only when payment has succeeded and an order confirmation is shown. We
        also send a confirmation by email, and your tickets are listed under My Entries in your account.
      </>,
      <>
        We are not responsible for entries that are not completed because of technical faults, lost
        connections or payment problems outside our reasonable control.
      </>,
    ],
  },
  {
    title: 'Skill Question',
    clauses: [
      <>
        Our competitions are prize competitions under the Gambling Act 2005, not lotteries. To enter, you must
        answer a skill question correctly.
      </>,
      <>
        Online, you must answer the question correctly before you can choose numbers or buy tickets. If your
        answer is wrong, you may try again.
      </>,
      <>
        A postal entry with an incorrect, missing or illegible answer is invalid and will not be entered into
        the draw.
      </>,
      <>Our decision on whether an answer is correct is final.</>,
    ],
  },
  {
    title: 'Free Postal Entry',
    anchor: 'free-entry',
    clauses: [
      <>You may enter any competition free of charge by post. One postcard is one entry.</>,
      <>
        Postal entries must be handwritten. Printed, typed, photocopied or mechanically reproduced entries
        will not be accepted.
      </>,
      <>
        Each postcard must clearly show your full name, postal address, phone number and email address, the
        name of the competition you wish to enter and your answer to its skill question.
      </>,
      <PostalAddressClause key="postal-address" />,
      <>
        Your postcard must arrive before the competition's closing date and, for an auto-win competition,
        before every ticket has been allocated. Postcards that arrive later will not be entered.
      </>,
      <>
        Each competition has a maximum number of entries per person, which covers paid and postal entries
        combined: the maximum shown on the competition page
        <DefaultCapNote />. A postal entrant without an account is identified by their email address and by
        their postal address and postcode. Postal entries beyond the per-person maximum are disqualified.
      </>,
      <>
        We process postal entries within <PostalProcessingDays /> working days of receiving them, while the
        competition is open. Each valid entry is given a randomly allocated available ticket number and
        appears in the competition's list of entries, and in the draw, exactly as a paid entry does.
      </>,
      <>Postal entries have exactly the same chance of winning as paid entries.</>,
      <>
        We are not responsible for postcards that are lost, delayed or damaged in the post. Proof of posting
        is not proof of receipt.
      </>,
    ],
  },
  {
    title: 'Tickets and Ticket Numbers',
    clauses: [
      <>
        Each competition has a fixed number of tickets and a fixed ticket price, both shown on the competition
        page. Each ticket number can be allocated only once.
      </>,
      <>You can buy between 1 and 10 tickets in a single purchase.</>,
      <>
        You can choose specific available numbers, or use Lucky Dip to have available numbers allocated to you
        at random. Both have the same chance of winning.
      </>,
      <>
        Tickets you add to your cart are held for you for <HoldTime />. If you do not complete payment within
        that time, the reservation expires and the numbers may be taken by other entrants.
      </>,
      <>Tickets are personal to you and may not be transferred or resold.</>,
    ],
  },
  {
    title: 'Payment',
    clauses: [
      <>
        All prices are in pounds sterling (GBP) and include any applicable taxes. The total shown at checkout
        is the amount you pay.
      </>,
      <>
        We accept payment by debit or credit card (Visa and Mastercard). Payments are processed securely by
        our card payment provider, and we never see or store your full card number.
      </>,
      <>Site credit may be used towards payment as set out in section 13.</>,
      <>If a payment is declined, reversed or charged back, the entries it paid for are void.</>,
    ],
  },
  {
    title: 'Closing Dates and Draws',
    clauses: [
      <>
        Each competition page shows its closing date and whether it is a live draw or an auto-win competition.
      </>,
      <>
        Live draw competitions close at the date and time shown and are drawn at that end date. We stream live
        draws.
      </>,
      <>
        Auto-win competitions are drawn as soon as every ticket has been sold. If an auto-win competition has
        not sold out by its closing date, we will either extend the closing date or draw it from the tickets
        allocated, and we will announce which on the competition page.
      </>,
      <>
        A competition may state a minimum number of tickets to be sold by its closing date, in its "Odds and
        facts". If fewer are sold, the closing date moves on by the number of days stated there, up to the
        number of times stated; after that the competition is cancelled, there is no draw, and every entry is
        refunded under section 12. Every entrant is e-mailed about each extension and the cancellation.
      </>,
      <>
        Winners are chosen at random from all valid entries, paid and postal, using a random number generator.
        We publish the winning ticket number once the draw is complete.
      </>,
      <>
        If events outside our reasonable control prevent a draw from taking place as planned, we may postpone
        it and will announce the new date on the competition page.
      </>,
      <>The result of each draw is final.</>,
    ],
  },
  {
    title: 'Winners',
    clauses: [
      <>
        We contact winners within 24-48 hours of the draw, using the email address and phone number on their
        account or postcard. Please keep your contact details up to date.
      </>,
      <>
        If we cannot reach a winner, or the winner does not respond, within 14 days of our first attempt to
        contact them, we may redraw the prize.
      </>,
      <>
        Before releasing a prize we may ask the winner to confirm their identity, age and address, as set out
        in section 2.
      </>,
      <>
        We publish, or make available on request, the surname and county of each winner. If you object, tell
        us and we will share those details only with the Advertising Standards Authority if it asks.
        Photographs or videos of winners are used only with their consent.
      </>,
    ],
  },
  {
    title: 'Prizes and Delivery',
    clauses: [
      <>
        Prizes are as described on the competition page. If a prize becomes unavailable for reasons outside
        our control, we may substitute a prize of equal or greater value.
      </>,
      <>
        Delivery is free within the UK mainland. If the winner's address is outside the UK mainland, we will
        contact them to agree delivery arrangements.
      </>,
      <>
        We agree a delivery date with each winner. Someone aged 18 or over must be at the address to receive
        the prize.
      </>,
      <>Prizes cannot be transferred or exchanged, except for a cash alternative offered under section 11.</>,
      <>
        Any manufacturer's warranty passes to the winner. We are not the manufacturer of the prizes we offer.
      </>,
    ],
  },
  {
    title: 'Cash Alternatives',
    clauses: [
      <>
        Some prizes have a cash alternative. Where one is available, the amount is stated on the competition
        page.
      </>,
      <>
        Where a cash alternative is offered, the winner must tell us whether they want the prize or the cash
        within 14 days of our first contact. If we do not hear from them, the prize will be provided.
      </>,
      <>Where no cash alternative is stated, none is available.</>,
      <>Cash alternatives are paid by bank transfer to a UK bank account in the winner's name.</>,
    ],
  },
  {
    title: 'Refunds',
    clauses: [
      <>Refunds are given only if a competition is cancelled or your entry arrived after the closing date.</>,
      <>
        Where a refund is due, we refund the amount you paid to the card you paid with. Any site credit used
        towards the entry is returned to your account as site credit.
      </>,
      <>
        Apart from the cases in section 12.1, entries cannot be cancelled or refunded once payment has been
        completed.
      </>,
      <>Nothing in these Terms affects your statutory rights.</>,
    ],
  },
  {
    title: 'Site Credit and Promotions',
    clauses: [
      <>
        Site credit is a balance on your account that can be put towards tickets. It has no cash value and
        cannot be withdrawn, transferred or exchanged for cash.
      </>,
      <>
        {CREDIT_MINIMUM_SPEND_TEXT} The credit applied is your balance or the basket total, whichever is
        lower.
      </>,
      // Stated only while a welcome promotion runs, in its own amount and end date.
      {
        whileOffer: (
          <>
            Our welcome credit offer gives new customers <OfferSummary />. It is limited to one per person and
            is available on new accounts only.
          </>
        ),
      },
      { whileOffer: <OfferEndClause /> },
      <>Other promotions may have their own conditions, which will be shown with the promotion.</>,
      <>
        We may remove site credit obtained through multiple accounts, error or misuse, and we may change or
        withdraw any promotion at any time. This does not affect site credit already properly awarded.
      </>,
    ],
  },
  {
    title: 'Responsible Play',
    clauses: [
      <>Entering our competitions should be fun. Only spend what you can afford and never chase a win.</>,
      <>
        If you would like to take a break or close your account, email <SupportEmail /> and we will help. We
        may limit or close an account if we have concerns about how it is being used.
      </>,
      <>
        Free, confidential advice is available from{' '}
        <a href="https://www.gamcare.org.uk" rel="noopener noreferrer">
          GamCare
        </a>{' '}
        and{' '}
        <a href="https://www.begambleaware.org" rel="noopener noreferrer">
          BeGambleAware
        </a>
        .
      </>,
    ],
  },
  {
    title: 'Limitation of Liability',
    clauses: [
      <>
        Nothing in these Terms excludes or limits our liability for death or personal injury caused by our
        negligence, for fraud or fraudulent misrepresentation, or for anything else that cannot be limited by
        law.
      </>,
      <>
        Subject to section 15.1, we are not liable for losses that were not foreseeable, for business losses,
        or for losses caused by events outside our reasonable control, including technical failures, internet
        outages and postal delays.
      </>,
      <>
        Subject to section 15.1, our total liability to you in connection with a competition is limited to the
        amount you paid for your entries in that competition.
      </>,
      <>
        We may cancel, change or suspend a competition if circumstances outside our control make it necessary.
        Paid entries in a cancelled competition are refunded under section 12.
      </>,
      <>We may disqualify any entrant who breaches these Terms or acts fraudulently or abusively.</>,
    ],
  },
  {
    title: 'Governing Law',
    clauses: [
      <>These Terms are governed by the law of England and Wales.</>,
      <>
        The courts of England and Wales have non-exclusive jurisdiction. If you live in Scotland or Northern
        Ireland, you may also bring proceedings in the courts of your home nation.
      </>,
      <>If any part of these Terms is found to be unenforceable, the rest remains in full effect.</>,
      <>
        Questions or complaints about these Terms can be sent to <SupportEmail />.
      </>,
    ],
  },
  {
    title: 'Complaints',
    clauses: [
      <>
        To make a complaint, sign in and use the Complaints section of{' '}
        <Link href="/profile#complaints">My Account</Link>, or e-mail <SupportEmail />. You will receive a
        reference and the date by which we will reply.
      </>,
      <>
        We reply by e-mail within the time shown with your complaint, and you can follow its status in My
        Account. If you are not satisfied with our reply, tell us quoting your reference and a senior member
        of the team will review it.
      </>,
    ],
  },
];
