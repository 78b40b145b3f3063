import { type ReactNode, useEffect, useRef } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { Card, Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';
import { AccordionGroup, AccordionItem } from './Accordion';
import { useFaqEntries } from './faqContent';
import { CardHeading, CtaRow, inlineLinks, RouteButton, SectionTitle, VisuallyHidden } from './StaticParts';

/** The FAQ entries repeated on this page, in this order. */
const HOW_TO_PLAY_FAQ_IDS = [
  'who-can-enter',
  'skill-question',
  'cart-hold',
  'free-entry',
  'winner-contact',
  'delivery-cost',
];

interface Step {
  title: string;
  body: ReactNode;
}

const steps: Step[] = [
  {
    title: 'Browse competitions',
    body: (
      <p>
        Take a look through our <Link href="/competitions">live competitions</Link> and pick the prize you
        would love to win. Each competition page shows the ticket price, how many tickets have sold, the
        closing date and whether it is an auto-win or a live draw.
      </p>
    ),
  },
  {
    title: 'Select your tickets',
    body: (
      <ul>
        <li>Answer the skill question correctly to unlock entry.</li>
        <li>
          Choose your own lucky numbers, or use Lucky Dip and we will pick available numbers for you at
          random.
        </li>
        <li>Buy between 1 and 10 tickets per purchase.</li>
        <li>Your tickets are held in your cart for 10 minutes while you check out.</li>
      </ul>
    ),
  },
  {
    title: 'Secure checkout',
    body: (
      <p>
        Sign in or create an account, then pay by card. We accept Visa and Mastercard, and payments are
        processed by our secure card payment provider, so your card number is never stored on our site. If you
        have site credit, you can use it on purchases of £5.00 or more.
      </p>
    ),
  },
  {
    title: 'Win',
    body: (
      <ul>
        <li>Auto-win competitions are drawn as soon as every ticket has been sold.</li>
        <li>Live draws take place at the end date and are streamed so you can watch.</li>
        <li>Winners are contacted within 24-48 hours of the draw.</li>
        <li>Delivery is free within the UK mainland, straight to your door.</li>
      </ul>
    ),
  },
];

/** How a draw is made and checked (the competition page's 'Draw commitment' links here). */
function FairDraws() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (window.location.hash !== '#fair-draws') return;
    // After the router's own scroll to the top on navigation.
    const timer = setTimeout(() => ref.current?.scrollIntoView({ block: 'start' }), 50);
    return () => clearTimeout(timer);
  }, []);
  return (
    <FairSection ref={ref} id="fair-draws" aria-labelledby="fair-draws-title">
      <SectionTitle id="fair-draws-title">Provably fair draws</SectionTitle>
      <StepCard as="div">
        <StepBody>
          <ul>
            <li>
              When a competition is created we pick a secret random seed and publish its SHA-256 fingerprint
              on the competition page as the <strong>draw commitment</strong>, before the first ticket is
              sold. We cannot change the seed later without the fingerprint changing.
            </li>
            <li>
              When sales close and the entries are final, we tie the draw to a future round of the{' '}
              <strong>drand randomness beacon</strong> (run by the League of Entropy) and publish its number
              before the round exists. Nobody, us included, knows its randomness until then, so nobody can
              know the winner in advance.
            </li>
            <li>
              At the draw we reveal the seed and publish the list of sold numbers. The winning ticket is
              HMAC-SHA256 of the seed, the beacon round's randomness and a hash of that list, turned into a
              position in the list with no bias towards any number.
            </li>
            <li>
              Anyone can check it: press <strong>Verify this draw</strong> on a drawn competition and your
              browser recomputes the fingerprint, the list's hash, checks the beacon round's signature and
              recomputes the winning number by itself. Past results are on our{' '}
              <Link href="/winners">winners page</Link>.
            </li>
          </ul>
        </StepBody>
      </StepCard>
    </FairSection>
  );
}

export default function HowToPlayPage() {
  const siteName = useSiteName();
  const faqEntries = useFaqEntries();
  const faqs = HOW_TO_PLAY_FAQ_IDS.flatMap((id) => faqEntries.filter((entry) => entry.id === id));

  useEffect(() => {
    document.title = `How to Play | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      <PageTitle>How to Play</PageTitle>
      <Lead>
        Entering a {siteName} competition takes a couple of minutes. Here is everything you need to know, from
        choosing a prize to having it delivered to your door.
      </Lead>

      <section aria-labelledby="how-to-play-steps">
        <SectionTitle id="how-to-play-steps">Four simple steps</SectionTitle>
        <StepList>
          {steps.map((step, index) => (
            <StepItem key={step.title}>
              <StepCard as="div">
                <StepNumber aria-hidden="true">{index + 1}</StepNumber>
                <StepHeading>
                  <VisuallyHidden>Step {index + 1}: </VisuallyHidden>
                  {step.title}
                </StepHeading>
                <StepBody>{step.body}</StepBody>
              </StepCard>
            </StepItem>
          ))}
        </StepList>
      </section>

      <FairDraws />

      <section aria-labelledby="how-to-play-faq">
        <SectionTitle id="how-to-play-faq">Frequently asked questions</SectionTitle>
        <AccordionGroup>
          {faqs.map((entry) => (
            <AccordionItem key={entry.id} question={entry.question} headingLevel={3}>
              {entry.answer}
            </AccordionItem>
          ))}
        </AccordionGroup>
        <MoreLink>
          Still got a question? Read our <Link href="/faq">full FAQs</Link> or the{' '}
          <Link href="/terms">Terms &amp; Conditions</Link>.
        </MoreLink>
      </section>

      <CtaCard aria-labelledby="how-to-play-cta">
        <CtaHeading id="how-to-play-cta">Ready to play?</CtaHeading>
        <CtaText>New prizes are added all the time. Find the one with your name on it.</CtaText>
        <CtaRow>
          <RouteButton href="/competitions">View Competitions</RouteButton>
        </CtaRow>
      </CtaCard>
    </PageContainer>
  );
}

const StepList = styled.ol`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;
  ${media.md} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  ${media.lg} {
    grid-template-columns: repeat(4, minmax(0, 1fr));
  }
`;

const StepItem = styled.li`
  display: flex;
`;

const StepCard = styled(Card)`
  flex: 1;
  display: flex;
  flex-direction: column;
  border-top: 4px solid ${({ theme }) => theme.colors.accent};
`;

const StepNumber = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 2.75rem;
  height: 2.75rem;
  margin-bottom: ${({ theme }) => theme.space.sm};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xl};
  font-weight: 700;
`;

const StepHeading = styled.h3`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.brand};
`;

const StepBody = styled.div`
  color: ${({ theme }) => theme.colors.text};
  line-height: 1.6;
  p,
  ul {
    margin: 0;
  }
  ul {
    padding-left: 1.125rem;
  }
  li + li {
    margin-top: ${({ theme }) => theme.space.xs};
  }
  ${inlineLinks}
`;

const FairSection = styled.section`
  margin-bottom: ${({ theme }) => theme.space.xl};
  scroll-margin-top: ${({ theme }) => theme.space.lg};
`;

const MoreLink = styled.p`
  margin: ${({ theme }) => `${theme.space.lg} 0 0`};
  color: ${({ theme }) => theme.colors.textMuted};
  ${inlineLinks}
`;

const CtaCard = styled(Card)`
  margin-top: ${({ theme }) => theme.space.xxl};
  background: ${({ theme }) => theme.colors.brand};
  color: ${({ theme }) => theme.colors.textInverse};
  text-align: left;
  ${media.md} {
    padding: ${({ theme }) => theme.space.xl};
  }
`;

const CtaHeading = styled(CardHeading)`
  color: ${({ theme }) => theme.colors.textInverse};
`;

const CtaText = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textInverse};
  opacity: 0.9;
`;
