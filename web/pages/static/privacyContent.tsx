import { Link } from 'wouter';
import { PromoterFacts, SiteName, SupportEmail } from './copyFacts';

/** The Privacy Policy's text, below the page's lead; the brand and address are filled in live. */
export const PRIVACY_POLICY = (
  <>
    <h2>Who we are</h2>
    <p>
      <SiteName /> is a prize competition website run by <PromoterFacts />. We are the controller of the
      personal information described in this policy, which means we decide how and why it is used. You can
      contact us about anything in this policy at <SupportEmail />.
    </p>

    <h2>What we collect</h2>
    <h3>Information you give us</h3>
    <ul>
      <li>
        <strong>Account details:</strong> your first name, last name, username, email address, phone number
        and password when you register. Your password is stored in a protected form that our staff cannot
        read.
      </li>
      <li>
        <strong>Eligibility:</strong> your confirmation that you live in the UK and are aged 18 or over, and
        any proof of age, identity or address we ask a winner to provide.
      </li>
      <li>
        <strong>Postal entries:</strong> the name, address, phone number, email address and answer written on
        your postcard.
      </li>
      <li>
        <strong>Messages:</strong> anything you tell us when you email our support team.
      </li>
    </ul>
    <h3>Information created when you use the site</h3>
    <ul>
      <li>
        <strong>Orders:</strong> what you bought, the amounts, dates and order numbers, and any site credit
        applied.
      </li>
      <li>
        <strong>Entries:</strong> the competitions you entered, your ticket numbers and the results of each
        draw.
      </li>
      <li>
        <strong>Site credit:</strong> your balance and a history of credit added and spent.
      </li>
      <li>
        <strong>Technical information:</strong> your session, the contents of your cart, and basic details
        such as your IP address and browser type, which our servers record to keep the site secure and
        working.
      </li>
    </ul>
    <h3>Payment information</h3>
    <p>
      Card payments are handled by our card payment processor. Your card details go directly to the processor,
      and we never see or store your card number. We receive only a payment reference, the amount and whether
      the payment succeeded.
    </p>

    <h2>Why we use your information</h2>
    <ul>
      <li>To create and run your account and keep you signed in.</li>
      <li>To take payment, allocate your ticket numbers and confirm your orders and entries.</li>
      <li>To process free postal entries.</li>
      <li>To run draws, contact winners within 24-48 hours and deliver prizes.</li>
      <li>To check that entrants are eligible and to prevent fraud and misuse of our promotions.</li>
      <li>To manage your site credit and any welcome credit offer.</li>
      <li>To answer your questions and complaints.</li>
      <li>To meet our legal, tax and accounting obligations.</li>
      <li>To keep our website secure and fix problems.</li>
    </ul>

    <h2>Our lawful bases</h2>
    <p>
      UK data protection law requires us to have a lawful basis for each use of your information. We rely on:
    </p>
    <ul>
      <li>
        <strong>Contract:</strong> to provide your account, process your entries and orders, run draws and
        deliver prizes under our <Link href="/terms">Terms &amp; Conditions</Link>.
      </li>
      <li>
        <strong>Legal obligation:</strong> to keep financial records and to respond to lawful requests from
        regulators and the authorities.
      </li>
      <li>
        <strong>Legitimate interests:</strong> to keep the site secure, prevent fraud, check eligibility,
        publish or make available winners' surnames and counties to show our draws are genuine, and improve
        our service. We only rely on this where your rights do not override our interests.
      </li>
      <li>
        <strong>Consent:</strong> to send you marketing emails if you have asked to receive them, and to use a
        winner's photograph or video. You can withdraw your consent at any time.
      </li>
    </ul>

    <h2>Who we share it with</h2>
    <p>We do not sell your personal information. We share it only where we need to, with:</p>
    <ul>
      <li>our card payment processor, to take payments and prevent fraud;</li>
      <li>couriers and prize suppliers, to deliver prizes to winners;</li>
      <li>the companies that host our website and email, who act only on our instructions;</li>
      <li>our professional advisers, such as accountants and lawyers;</li>
      <li>regulators, the police or other authorities, where the law requires it.</li>
    </ul>
    <p>
      If any of these providers handles your information outside the UK, we make sure appropriate safeguards
      are in place, as UK data protection law requires.
    </p>

    <h2>How long we keep it</h2>
    <ul>
      <li>Account details are kept while your account is open.</li>
      <li>
        Order and entry records are financial records. We keep them for at least six years for tax and
        accounting purposes, even after an account is deleted.
      </li>
      <li>
        Postal entries are kept until the competition has been drawn and any questions about it are settled.
      </li>
      <li>Support emails are kept for as long as we need them to deal with your query.</li>
      <li>Server logs are kept for a limited period for security and then deleted.</li>
    </ul>
    <p>When we no longer need your information, we delete it or make it anonymous.</p>

    <h2>How we keep it secure</h2>
    <p>
      Our website uses encrypted connections, access to personal information is limited to the people who need
      it, and forms are protected against cross-site request forgery. No system is completely secure, so
      please use a strong password that you do not use anywhere else.
    </p>

    <h2>Your rights</h2>
    <p>Under UK data protection law you have the right to:</p>
    <ul>
      <li>ask for a copy of the personal information we hold about you;</li>
      <li>ask us to correct information that is wrong or incomplete;</li>
      <li>ask us to delete your information, subject to the records we must keep by law;</li>
      <li>ask us to restrict how we use your information, or object to our use of it;</li>
      <li>ask for information you gave us in a portable format;</li>
      <li>withdraw your consent at any time, where we rely on consent.</li>
    </ul>
    <p>
      To use any of these rights, email <SupportEmail />. We answer privacy inquiries within 30 days. We may
      ask you to confirm your identity before we act on a request.
    </p>

    <h2>Cookies</h2>
    <p>
      We use a small number of strictly necessary cookies and browser storage to keep you signed in, hold your
      cart and protect our forms. Our <Link href="/cookies">Cookie Policy</Link> explains each one and how to
      control them.
    </p>

    <h2>Children</h2>
    <p>
      Our competitions are only for people aged 18 or over. We do not knowingly collect information about
      children. If you believe a child has given us their details, please contact us and we will delete them.
    </p>

    <h2>Changes to this policy</h2>
    <p>
      We may update this policy from time to time. The current version is always on this page, and we will
      tell registered customers by email about any significant change.
    </p>

    <h2>Contact us and complaints</h2>
    <p>
      For any question about your personal information, email <SupportEmail />. Our{' '}
      <Link href="/faq">Frequently Asked Questions</Link> also cover common account and data questions. If you
      are unhappy with how we have handled your information, you can complain to the Information
      Commissioner's Office (ICO) at{' '}
      <a href="https://ico.org.uk" rel="noopener noreferrer">
        ico.org.uk
      </a>
      , although we would appreciate the chance to put things right first.
    </p>
    <p>
      <Link href="/">
        Return to the <SiteName /> home page
      </Link>
    </p>
  </>
);
