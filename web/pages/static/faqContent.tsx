import { type ReactNode, useMemo } from 'react';
import { Link } from 'wouter';
import { CREDIT_MINIMUM_SPEND_TEXT, useSignUpOffer } from '../../components/promo/signUpOffer';
import { useSiteName } from '../../stores/site';
import { OfferEnds, OfferSummary, SiteName, SupportEmail } from './copyFacts';

export type FaqCategoryId =
  | 'getting-started'
  | 'tickets-entries'
  | 'payments-refunds'
  | 'draws-winners'
  | 'prizes-delivery'
  | 'account-technical'
  | 'rules-regulations';

export interface FaqCategory {
  id: FaqCategoryId;
  label: string;
}

/** The FAQ categories, in the order the filter chips and groups are shown. */
export const FAQ_CATEGORIES: readonly FaqCategory[] = [
  { id: 'getting-started', label: 'Getting Started' },
  { id: 'tickets-entries', label: 'Tickets & Entries' },
  { id: 'payments-refunds', label: 'Payments & Refunds' },
  { id: 'draws-winners', label: 'Draws & Winners' },
  { id: 'prizes-delivery', label: 'Prizes & Delivery' },
  { id: 'account-technical', label: 'Account & Technical' },
  { id: 'rules-regulations', label: 'Rules & Regulations' },
];

export interface FaqEntry {
  id: string;
  category: FaqCategoryId;
  question: string;
  answer: ReactNode;
}

/** An entry as written: `{siteName}` in its question stands for the brand name. */
interface FaqCopy extends FaqEntry {
  /** Asked only while a welcome promotion runs. */
  whileOffer?: true;
}

/** Every question and answer, shared by the FAQ page and the How to Play page. */
const FAQ_ENTRIES: FaqCopy[] = [
  // Getting Started
  {
    id: 'what-is-it',
    category: 'getting-started',
    question: 'What is {siteName}?',
    answer: (
      <>
        <p>
          <SiteName /> is a family-run prize competition website based in the South West of England. You buy
          tickets for the prizes you like, answer a simple skill question, and every valid entry has a fair
          chance of being drawn as the winner.
        </p>
        <p>
          Our prizes range from big-ticket items to everyday essentials, and part of every month's takings
          goes to good causes in the South West. See <Link href="/how-to-play">How to Play</Link> for a
          step-by-step guide.
        </p>
      </>
    ),
  },
  {
    id: 'who-can-enter',
    category: 'getting-started',
    question: 'Who can enter?',
    answer: (
      <p>
        Our competitions are open to UK residents aged 18 or over. Our staff, their immediate families and
        anyone professionally connected with a competition cannot enter. We may ask a winner for proof of age,
        identity and address before we hand over a prize.
      </p>
    ),
  },
  {
    id: 'need-account',
    category: 'getting-started',
    question: 'Do I need an account to enter?',
    answer: (
      <p>
        You can browse competitions and add tickets to your cart without an account, but you need to sign in
        or <Link href="/auth?tab=register">create an account</Link> before you pay. Anything already in your
        cart is carried over to your new account when you register. You don't need an account to enter for
        free by post.
      </p>
    ),
  },
  {
    id: 'how-to-start',
    category: 'getting-started',
    question: 'How do I get started?',
    answer: (
      <p>
        Head to <Link href="/competitions">our competitions</Link>, choose a prize, answer the skill question,
        then pick your lucky numbers or use Lucky Dip. Add your tickets to the cart and check out securely by
        card. Live draws are streamed, and winners receive their prize at their door.
      </p>
    ),
  },

  // Tickets & Entries
  {
    id: 'how-many-tickets',
    category: 'tickets-entries',
    question: 'How many tickets can I buy?',
    answer: (
      <p>
        You can buy between 1 and 10 tickets in a single purchase. Each competition has a fixed number of
        tickets, and the progress bar on the competition page shows how many have already been sold.
      </p>
    ),
  },
  {
    id: 'choose-numbers',
    category: 'tickets-entries',
    question: 'Can I choose my own ticket numbers?',
    answer: (
      <p>
        Yes. Choose Select Lucky Numbers on the competition page and pick any numbers that are still
        available. If you'd rather not choose, Buy Now without picking numbers and Lucky Dip will allocate
        available numbers to you at random. Both ways have exactly the same chance of winning.
      </p>
    ),
  },
  {
    id: 'cart-hold',
    category: 'tickets-entries',
    question: 'How long are tickets held in my cart?',
    answer: (
      <p>
        Tickets are held in your cart for 10 minutes, and the cart shows a countdown for each item. If you
        haven't completed checkout when the time runs out, the reservation expires and the numbers are
        released for other players, so check out promptly if you have your heart set on particular numbers.
      </p>
    ),
  },
  {
    id: 'skill-question',
    category: 'tickets-entries',
    question: 'Why do I have to answer a question before entering?',
    answer: (
      <p>
        UK law treats our draws as prize competitions rather than lotteries, which means every entrant has to
        answer a skill question correctly. You answer it before choosing numbers or buying tickets. If you get
        it wrong, you can simply try again.
      </p>
    ),
  },
  {
    id: 'see-my-tickets',
    category: 'tickets-entries',
    question: 'Where can I see my tickets?',
    answer: (
      <p>
        After a successful payment you will see an order confirmation with your ticket details, and we also
        email them to you. You can view every entry at any time under My Entries when you are signed in.
      </p>
    ),
  },

  // Payments & Refunds
  {
    id: 'how-to-pay',
    category: 'payments-refunds',
    question: 'How can I pay?',
    answer: (
      <p>
        We accept debit and credit cards from Visa and Mastercard. Payments are handled by our secure card
        payment provider, so we never see or store your full card number. Prices are shown in pounds sterling
        and the total at checkout is the amount you pay.
      </p>
    ),
  },
  {
    id: 'refunds',
    category: 'payments-refunds',
    question: 'Can I get a refund?',
    answer: (
      <p>
        Refunds are only given if a competition is cancelled or your entry arrived after the closing date. In
        either case we refund you in full to the card you paid with. Otherwise entries cannot be cancelled
        once payment has gone through. The full rules are in our{' '}
        <Link href="/terms">Terms &amp; Conditions</Link>.
      </p>
    ),
  },
  {
    id: 'site-credit',
    category: 'payments-refunds',
    question: 'What is site credit and how do I use it?',
    answer: (
      <p>
        Site credit is a balance on your account that you can put towards tickets. To use it, tick the site
        credit box in your cart. Site credit can be used on purchases of £5.00 or more, and the amount applied
        is your balance or the cart total, whichever is lower. It has no cash value and cannot be withdrawn.
      </p>
    ),
  },
  {
    id: 'payment-failed',
    category: 'payments-refunds',
    question: 'My payment failed. What should I do?',
    answer: (
      <p>
        Check your card details and try again. Your tickets stay reserved for the rest of their 10 minutes in
        the cart, after which they may be released. If money has left your account but you did not receive an
        order confirmation, email us at <SupportEmail /> with the date and amount and we will look into it. We
        reply within about 24 hours.
      </p>
    ),
  },

  // Draws & Winners
  {
    id: 'when-draws',
    category: 'draws-winners',
    question: 'When are the draws?',
    answer: (
      <p>
        It depends on the competition type. Auto-win competitions are drawn as soon as every ticket has been
        sold. Live draw competitions are drawn at the end date shown on the competition page, where a
        countdown tells you exactly how long is left.
      </p>
    ),
  },
  {
    id: 'how-winners-chosen',
    category: 'draws-winners',
    question: 'How are winners chosen?',
    answer: (
      <p>
        Winners are picked at random from every valid entry, paid and postal alike, using a random number
        generator. Live draws are streamed so that anyone can watch, and we publish the winning ticket number
        once each draw is complete.
      </p>
    ),
  },
  {
    id: 'winner-contact',
    category: 'draws-winners',
    question: 'How will I know if I have won?',
    answer: (
      <p>
        We contact winners within 24-48 hours of the draw, using the email address and phone number on their
        account. Please keep your phone number up to date on your profile so we can reach you quickly.
      </p>
    ),
  },
  {
    id: 'watch-draw',
    category: 'draws-winners',
    question: 'Can I watch the draw?',
    answer: (
      <p>
        Yes. Live draws are streamed at the end date of each live draw competition, so you can watch the
        winning number being picked in real time. Auto-win competitions are drawn automatically the moment the
        last ticket sells.
      </p>
    ),
  },

  // Prizes & Delivery
  {
    id: 'delivery-cost',
    category: 'prizes-delivery',
    question: 'How much does delivery cost?',
    answer: (
      <p>
        Nothing. Delivery is free within the UK mainland. Once we have confirmed your win we arrange delivery
        with you, and your prize arrives at your door.
      </p>
    ),
  },
  {
    id: 'outside-mainland',
    category: 'prizes-delivery',
    question: 'What if I do not live on the UK mainland?',
    answer: (
      <p>
        You can still enter as long as you are a UK resident. If your address is outside the UK mainland, for
        example in Northern Ireland or on one of the islands, we will contact you to agree delivery
        arrangements before your prize is sent.
      </p>
    ),
  },
  {
    id: 'cash-alternative',
    category: 'prizes-delivery',
    question: 'Can I take a cash alternative instead of the prize?',
    answer: (
      <p>
        Only where the competition page says a cash alternative is available, and at the amount stated there.
        If no cash alternative is mentioned, the prize must be taken as described.
      </p>
    ),
  },
  {
    id: 'prize-timing',
    category: 'prizes-delivery',
    question: 'When will my prize arrive?',
    answer: (
      <p>
        When we contact you we confirm your details and agree a delivery date that suits you. Someone aged 18
        or over will need to be at the address to receive the prize.
      </p>
    ),
  },

  // Account & Technical
  {
    id: 'contact-support',
    category: 'account-technical',
    question: 'How do I contact support?',
    answer: (
      <p>
        Email us at <SupportEmail />. A member of our team replies within about 24 hours. Please include your
        username and, if your question is about an order, the order number from your confirmation.
      </p>
    ),
  },
  {
    id: 'update-phone',
    category: 'account-technical',
    question: 'How do I update my phone number?',
    answer: (
      <p>
        Sign in and open My Profile from the account menu. You can edit your phone number there and save the
        change straight away. We use this number to contact you if you win, so please keep it current.
      </p>
    ),
  },
  {
    id: 'close-account',
    category: 'account-technical',
    question: 'How do I close my account or ask about my data?',
    answer: (
      <p>
        Email <SupportEmail /> and we will close your account. We answer privacy inquiries within 30 days.
        Order and entry records are kept as financial records even after an account is deleted, as explained
        in our <Link href="/privacy">Privacy Policy</Link>.
      </p>
    ),
  },
  {
    id: 'cart-emptied',
    category: 'account-technical',
    question: 'Why has something disappeared from my cart?',
    answer: (
      <p>
        Tickets are only held for 10 minutes. When a reservation expires the numbers are released, so you may
        need to add them again if they are still available. Your cart also relies on a session cookie, so make
        sure cookies are enabled for this site. See our <Link href="/cookies">Cookie Policy</Link> for
        details.
      </p>
    ),
  },

  // Rules & Regulations
  {
    id: 'free-entry',
    category: 'rules-regulations',
    question: 'Is there a free way to enter?',
    answer: (
      <p>
        Yes. You can enter any competition free by post. Send one handwritten postcard per entry with your
        full name, address, phone number, email address, the name of the competition and your answer to the
        skill question. One postcard is one entry, entries beyond the per-person maximum are disqualified, and
        postal entries are processed within 5 working days. They have exactly the same chance of winning as
        paid entries. See section 5 of our <Link href="/terms">Terms &amp; Conditions</Link> for the full
        details.
      </p>
    ),
  },
  {
    id: 'is-it-legal',
    category: 'rules-regulations',
    question: 'Is this gambling?',
    answer: (
      <p>
        No. Our draws are prize competitions under the Gambling Act 2005, not lotteries: every entrant must
        answer a skill question correctly, and a free postal route is always available. Even so, please only
        spend what you can afford and treat entering as a bit of fun.
      </p>
    ),
  },
  // Asked only while a welcome promotion runs, and answered from it.
  {
    id: 'welcome-credit',
    category: 'rules-regulations',
    whileOffer: true,
    question: 'How does the welcome credit offer work?',
    answer: (
      <p>
        New customers get <OfferSummary />. The offer is one per person and for new accounts only.{' '}
        <OfferEnds /> {CREDIT_MINIMUM_SPEND_TEXT} Like all site credit, it has no cash value.
      </p>
    ),
  },
  {
    id: 'full-rules',
    category: 'rules-regulations',
    question: 'Where can I read the full rules?',
    answer: (
      <p>
        Everything is set out in our <Link href="/terms">Terms &amp; Conditions</Link>, including eligibility,
        postal entry, draws, prizes, refunds and site credit. By entering a competition you agree to those
        terms.
      </p>
    ),
  },
];

/** The FAQ entries with the current brand name filled in, the offer's only while one runs. */
export function useFaqEntries(): FaqEntry[] {
  const siteName = useSiteName();
  const offerRuns = useSignUpOffer() !== null;
  return useMemo(
    () =>
      FAQ_ENTRIES.filter((entry) => offerRuns || !entry.whileOffer).map(({ whileOffer: _, ...entry }) => ({
        ...entry,
        question: entry.question.replace('{siteName}', siteName),
      })),
    [siteName, offerRuns],
  );
}
