import { useEffect } from 'react';
import styled from 'styled-components';
import { charityNumberText, NamedCharities } from '../../components/layout/NamedCharities';
import { Card, Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';
import { CardHeading, CtaRow, RouteButton, SectionTitle } from './StaticParts';

interface Highlight {
  title: string;
  text: string;
}

const promises: Highlight[] = [
  {
    title: 'Transparent draws',
    text: 'Every winner is picked at random from all valid entries. Live draws are streamed at the end date and auto-win competitions are drawn the moment the last ticket sells.',
  },
  {
    title: 'Secure payments',
    text: 'Pay safely with Mastercard and Visa. Card payments are handled by our secure card payment provider, and we never store your card number.',
  },
  {
    title: 'Fair for everyone',
    text: 'Every competition has a fixed number of tickets, a skill question and a free postal entry route with the same chance of winning as a paid entry.',
  },
  {
    title: 'Real people',
    text: 'We contact every winner personally within 24-48 hours and deliver prizes free of charge within the UK mainland.',
  },
];

export default function AboutPage() {
  const siteName = useSiteName();

  useEffect(() => {
    document.title = `About Us | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      <PageTitle>About {siteName}</PageTitle>
      <Lead>
        We are a small, family-run business from the South West of England, bringing fair and exciting prize
        competitions to players right across the UK.
      </Lead>

      <Story>
        <h2>Our story</h2>
        <p>
          {siteName} started around a kitchen table in the South West, somewhere between the moors and the
          sea. We loved the idea of prize competitions but wanted one we would be proud to enter ourselves:
          honest, friendly and run by people you can actually talk to.
        </p>
        <p>
          That is still how we work today. We source every prize ourselves, from big-ticket items to everyday
          essentials, including tech, home appliances, cash, vouchers and family treats. Ticket prices are
          kept low so that everyone has a chance to win something special.
        </p>
        <p>
          When you win, we pick up the phone ourselves, arrange delivery and bring your prize to your door,
          wherever you are on the UK mainland.
        </p>
      </Story>

      {/* The charities Site Settings name, with their registration numbers. */}
      <NamedCharities
        frame={(list, count) => (
          <section aria-labelledby="about-causes">
            <SectionTitle id="about-causes">Giving back</SectionTitle>
            <SectionIntro>
              Every month we donate to{' '}
              {count === 1 ? 'this registered charity' : `these ${count} registered charities`}. Every entry
              you make helps support them.
            </SectionIntro>
            <Grid data-testid="about-charities">{list}</Grid>
          </section>
        )}
        item={(c) => (
          <HighlightCard as="div">
            <h3>{c.name}</h3>
            <p>{charityNumberText(c)}</p>
          </HighlightCard>
        )}
      />

      <section aria-labelledby="about-promises">
        <SectionTitle id="about-promises">Our promise to you</SectionTitle>
        <Grid>
          {promises.map((promise) => (
            <li key={promise.title}>
              <HighlightCard as="div">
                <h3>{promise.title}</h3>
                <p>{promise.text}</p>
              </HighlightCard>
            </li>
          ))}
        </Grid>
        <PaymentNote>Secure payments with Mastercard and Visa.</PaymentNote>
      </section>

      <JoinCard aria-labelledby="about-join">
        <CardHeading id="about-join">Come and play with us</CardHeading>
        <JoinText>
          Have a look at what is up for grabs this week, or create an account so you are ready when the
          perfect prize comes along.
        </JoinText>
        <CtaRow>
          <RouteButton href="/competitions">View Competitions</RouteButton>
          <RouteButton href="/auth" variant="ghost">
            Create an account
          </RouteButton>
        </CtaRow>
      </JoinCard>
    </PageContainer>
  );
}

const Story = styled.section`
  max-width: 75ch;
  line-height: 1.65;
  h2 {
    margin: 0 0 ${({ theme }) => theme.space.sm};
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: ${({ theme }) => theme.fontSizes.xl};
    color: ${({ theme }) => theme.colors.brand};
  }
  p {
    margin: 0 0 ${({ theme }) => theme.space.md};
  }
`;

const SectionIntro = styled.p`
  max-width: 75ch;
  margin: 0 0 ${({ theme }) => theme.space.lg};
  line-height: 1.65;
`;

const Grid = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;
  ${media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  ${media.lg} {
    grid-template-columns: repeat(4, minmax(0, 1fr));
  }
  li {
    display: flex;
  }
`;

const HighlightCard = styled(Card)`
  flex: 1;
  border-top: 4px solid ${({ theme }) => theme.colors.accent};
  h3 {
    margin: 0 0 ${({ theme }) => theme.space.xs};
    font-family: ${({ theme }) => theme.fonts.heading};
    font-size: ${({ theme }) => theme.fontSizes.lg};
    color: ${({ theme }) => theme.colors.brand};
  }
  p {
    margin: 0;
    line-height: 1.6;
    color: ${({ theme }) => theme.colors.text};
  }
`;

const PaymentNote = styled.p`
  margin: ${({ theme }) => `${theme.space.lg} 0 0`};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
`;

const JoinCard = styled(Card)`
  margin-top: ${({ theme }) => theme.space.xxl};
  max-width: 75ch;
`;

const JoinText = styled.p`
  margin: 0;
  line-height: 1.65;
`;
