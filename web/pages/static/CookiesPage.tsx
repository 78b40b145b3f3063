import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSite, useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';
import { RelatedLinks, StaticProse, SupportEmailLink } from './StaticParts';

interface StorageItem {
  name: string;
  kind: string;
  purpose: string;
  duration: string;
}

const cookies: StorageItem[] = [
  {
    name: 'Session cookie',
    kind: 'Strictly necessary cookie, set by us',
    purpose:
      'Keeps you signed in as you move between pages and holds your cart, including the cart of a visitor who has not signed in yet.',
    duration: 'Until you sign out or your session expires after a period of inactivity.',
  },
  {
    name: 'CSRF protection',
    kind: 'Strictly necessary, linked to your session',
    purpose:
      'A security token that proves requests such as signing in, changing your cart or paying really came from our website, protecting you against cross-site request forgery.',
    duration: 'For the length of your session. It is refreshed regularly while you are signed in.',
  },
  {
    name: 'Payment security cookies',
    kind: 'Strictly necessary, set by our card payment provider',
    purpose:
      'When the secure card payment form opens at checkout, our card payment provider may set its own cookies to detect and prevent fraud.',
    duration: 'As set out in the payment provider’s own privacy notice.',
  },
];

const browserStorage: StorageItem[] = [
  {
    name: 'Cart copy',
    kind: 'Local storage',
    purpose:
      'Keeps a copy of the items in your cart so it shows straight away when you reload a page. Your cart itself is held on our servers.',
    duration: 'Cleared after a successful payment, when your cart is emptied, or when you sign out.',
  },
  {
    name: 'Payment in progress',
    kind: 'Local storage',
    purpose: 'Remembers a payment that has started so the checkout can finish correctly if the page reloads.',
    duration: 'Cleared as soon as the payment is complete.',
  },
  {
    name: 'Signed-in details',
    kind: 'Session storage',
    purpose:
      'Holds your name, username and email address while we check your session, so the page header shows the right account.',
    duration: 'Cleared when you close the browser tab or sign out.',
  },
];

function StorageList({ items }: { items: StorageItem[] }) {
  return (
    <ItemList>
      {items.map((item) => (
        <li key={item.name}>
          <h3>{item.name}</h3>
          <Details>
            <div>
              <dt>Type</dt>
              <dd>{item.kind}</dd>
            </div>
            <div>
              <dt>What it does</dt>
              <dd>{item.purpose}</dd>
            </div>
            <div>
              <dt>How long it lasts</dt>
              <dd>{item.duration}</dd>
            </div>
          </Details>
        </li>
      ))}
    </ItemList>
  );
}

export default function CookiesPage() {
  const siteName = useSiteName();
  const supportEmail = useSite((s) => s.supportEmail);

  useEffect(() => {
    document.title = `Cookie Policy | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      <PageTitle>Cookie Policy</PageTitle>
      <Lead>
        {siteName} uses only the cookies and browser storage needed to keep you signed in, hold your cart and
        keep payments secure. We do not use advertising cookies.
      </Lead>

      <StaticProse>
        <h2>What cookies are</h2>
        <p>
          Cookies are small text files that a website saves in your browser so it can recognise you between
          pages. Local storage and session storage are similar features that let a website keep small amounts
          of information in your browser. This policy covers all three. How we handle your personal
          information more generally is explained in our <Link href="/privacy">Privacy Policy</Link>.
        </p>

        <h2>Cookies we use</h2>
        <p>Every cookie we use is strictly necessary for the site to work.</p>
        <StorageList items={cookies} />

        <h2>Browser storage we use</h2>
        <p>We also keep a few small items in your browser to make the site faster and more reliable.</p>
        <StorageList items={browserStorage} />

        <h2>What we do not use</h2>
        <ul>
          <li>No advertising or marketing cookies.</li>
          <li>No cookies that track you across other websites.</li>
          <li>No selling or sharing of cookie data with advertisers.</li>
        </ul>
        <p>
          Our fonts are served from our own website, and apart from the payment security cookies described
          above, no third party sets cookies through our pages. The social media links in our footer take you
          to other websites, which have their own cookie policies.
        </p>

        <h2>Why we do not ask for consent</h2>
        <p>
          The Privacy and Electronic Communications Regulations allow websites to use strictly necessary
          cookies and storage without asking for consent, because the service you have asked for cannot work
          without them. If we ever add cookies that are not strictly necessary, such as analytics, we will ask
          for your consent first and update this policy.
        </p>

        <h2>How to control cookies</h2>
        <p>
          You can see, delete and block cookies in your browser settings. In most browsers you will find these
          options under Settings, then Privacy or Privacy and security. Clearing your browsing data for this
          site also removes the items in local storage and session storage, and signing out clears your
          session.
        </p>
        <p>
          Because our cookies are strictly necessary, blocking them will stop the site working properly: you
          will not be able to sign in, keep tickets in your cart or complete a payment.
        </p>

        <h2>Questions</h2>
        <p>
          If you have a question about cookies, email <SupportEmailLink email={supportEmail} /> or see our{' '}
          <Link href="/faq">Frequently Asked Questions</Link>. Our{' '}
          <Link href="/terms">Terms &amp; Conditions</Link> set out the rules for entering our competitions.
        </p>
        <p>
          <Link href="/">Return to the {siteName} home page</Link>
        </p>
      </StaticProse>

      <RelatedLinks
        links={[
          { href: '/privacy', label: 'Privacy Policy' },
          { href: '/terms', label: 'Terms & Conditions' },
          { href: '/faq', label: 'FAQs' },
          { href: '/', label: 'Back to home' },
        ]}
      />
    </PageContainer>
  );
}

const ItemList = styled.ul`
  && {
    display: grid;
    gap: ${({ theme }) => theme.space.md};
    margin: 0 0 ${({ theme }) => theme.space.lg};
    padding: 0;
    list-style: none;
  }
  && > li {
    margin: 0;
    padding: ${({ theme }) => theme.space.md};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radii.md};
    background: ${({ theme }) => theme.colors.surface};
  }
  && h3 {
    margin: 0 0 ${({ theme }) => theme.space.xs};
    color: ${({ theme }) => theme.colors.brand};
  }
`;

const Details = styled.dl`
  display: grid;
  gap: ${({ theme }) => theme.space.xs};
  margin: 0;
  div {
    display: grid;
    gap: ${({ theme }) => theme.space.xxs};
    ${media.md} {
      grid-template-columns: 10rem 1fr;
      gap: ${({ theme }) => theme.space.md};
    }
  }
  dt {
    font-weight: 600;
    font-size: ${({ theme }) => theme.fontSizes.sm};
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
  }
`;
