import { useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { capitalise, categoryLabel } from '../../../contract/categories';
import { useRoute } from '../../api/call';
import { CategoryBar } from '../../components/competitions/CategoryBar';
import { CardGrid, CompetitionCard, PlaceholderCards } from '../../components/competitions/CompetitionCard';
import { arrangeCompetitions, ListControls } from '../../components/competitions/listOptions';
import { OpeningSoonRow } from '../../components/competitions/OpeningSoon';
import {
  useCategoryParam,
  useDrawTypeParam,
  useSortParam,
} from '../../components/competitions/useCategoryParam';
import { charityNumberText, NamedCharities } from '../../components/layout/NamedCharities';
import { offerLine, useSignUpOfferForVisitor } from '../../components/promo/signUpOffer';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, PageContainer } from '../../components/ui/Page';
import { ResponsiveImage } from '../../components/ui/ResponsiveImage';
import { useMediaQuery } from '../../components/ui/useMediaQuery';
import { useSiteName } from '../../stores/site';
import { media, theme } from '../../theme/theme';

// The sign-up offer arrives after the first paint (for a visitor known to be signed out): it goes
// last in the hero, under the button, and the hero is tall enough for it from the start, so its
// arrival moves neither the headline and button nor the competitions below (Lighthouse measured
// CLS 0.05-0.25 on the home page from a centred hero growing). Phones need the room for 6 lines.
const Hero = styled.section`
  position: relative;
  min-height: 420px;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  text-align: center;
  color: ${({ theme }) => theme.colors.textInverse};
  background: ${({ theme }) => theme.colors.brand};
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.md}`};
  &::before {
    content: '';
    position: absolute;
    z-index: 1;
    inset: 0;
    background: linear-gradient(180deg, rgba(6, 26, 51, 0.35), rgba(6, 26, 51, 0.7));
  }
  ${media.md} { min-height: 300px; padding-top: 3rem; }
  /* A desktop (1280×800) shows the first row of competitions above the fold: a band, the offer on one line. */
  ${media.lg} { min-height: 216px; padding: 1.25rem ${({ theme }) => theme.space.md}; }
`;

/** The hero picture as an <img> (not a CSS background) so it gets a srcset and a high fetch priority. */
const HeroPicture = styled(ResponsiveImage)`
  position: absolute;
  inset: 0;
  width: 100%;
  height: 100%;
  object-fit: cover;
`;

const HeroInner = styled.div`
  position: relative;
  z-index: 2;
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  justify-items: center;
`;

const Headline = styled.h1`
  margin: 0;
  font-size: 1.9rem;
  letter-spacing: 0.02em;
  text-shadow: 0 2px 12px rgba(0, 0, 0, 0.4);
  ${media.md} { font-size: 3rem; }
  ${media.lg} { font-size: 2.6rem; }
`;

const HeroOffer = styled.p`
  margin: 0;
  max-width: 40rem;
  ${media.lg} { max-width: none; }
  font-weight: 600;
  text-shadow: 0 1px 8px rgba(0, 0, 0, 0.6);
`;

const SectionTitle = styled.h2`
  color: ${({ theme }) => theme.colors.brand};
  font-size: ${({ theme }) => theme.fontSizes.xxl};
  margin: ${({ theme }) => `${theme.space.xl} 0 ${theme.space.sm}`};
`;

// Straight under the hero, the page's own top padding is gap enough. On a desktop the sort and
// draw-type choices move up to the title's row (the reading order stays title, categories,
// choices), so the cards start higher.
const ListTitle = styled(SectionTitle)`
  margin-top: 0;
  ${media.lg} { margin-bottom: 0; grid-area: title; }
`;

const ListHead = styled.div`
  ${media.lg} {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas: 'title controls' 'bar bar';
    align-items: center;
    column-gap: ${({ theme }) => theme.space.md};
    > :nth-child(2) { grid-area: bar; }
    > :nth-child(3) { grid-area: controls; }
  }
`;

const Empty = styled.p`
  padding: ${({ theme }) => theme.space.xl};
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Center = styled.div`
  display: flex;
  justify-content: center;
  margin-top: ${({ theme }) => theme.space.xl};
`;

const Split = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.md} { grid-template-columns: repeat(2, 1fr); }
`;

const Charities = styled.ul`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  grid-template-columns: repeat(2, 1fr);
  ${media.md} { grid-template-columns: repeat(4, 1fr); }
  li { text-align: center; }
`;

const Steps = styled.ol`
  list-style: none;
  padding: 0;
  margin: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  ${media.md} { grid-template-columns: repeat(3, 1fr); }
  counter-reset: step;
  li {
    counter-increment: step;
    background: ${({ theme }) => theme.colors.surface};
    border-radius: ${({ theme }) => theme.radii.lg};
    box-shadow: ${({ theme }) => theme.shadows.card};
    padding: ${({ theme }) => theme.space.lg};
  }
  li::before {
    content: counter(step);
    display: inline-flex;
    width: 36px;
    height: 36px;
    align-items: center;
    justify-content: center;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.accent};
    font-weight: 700;
    margin-bottom: ${({ theme }) => theme.space.xs};
  }
  h3 { margin: 0 0 4px; }
  p { margin: 0; color: ${({ theme }) => theme.colors.textMuted}; }
`;

/** On a phone the home page shows this many cards first, not a wall of every competition. */
export const PHONE_CARD_LIMIT = 6;

/** Below the competitions: who we are, the charities we support and how to play. */
function AboutCharitiesHowTo({ siteName }: { siteName: string }) {
  return (
    <>
      <section aria-labelledby="about-title">
        <SectionTitle id="about-title">About {siteName}</SectionTitle>
        <Split>
          <Card>
            <p>
              We are a family-run business from the South West of England. We offer prizes from big-ticket
              items to everyday essentials, with transparent draws and secure payments with Mastercard and
              Visa.
            </p>
            <Link href="/about">Read our story</Link>
          </Card>
          <Card>
            <p>
              Every competition has a fixed number of tickets, so you always know your odds. Free postal entry
              is available on every competition.
            </p>
            <Link href="/terms">Read the terms</Link>
          </Card>
        </Split>
      </section>

      {/* The charities Site Settings name, with their registration numbers. */}
      <NamedCharities
        frame={(list, count) => (
          <section aria-labelledby="charities-title">
            <SectionTitle id="charities-title">The Charities We Support</SectionTitle>
            <p>
              Every month we donate to{' '}
              {count === 1 ? 'this registered charity' : `these ${count} registered charities`}.
            </p>
            <Charities data-testid="home-charities">{list}</Charities>
          </section>
        )}
        item={(c) => (
          <>
            <strong>{c.name}</strong>
            <p>{charityNumberText(c)}</p>
          </>
        )}
      />

      <section aria-labelledby="how-title">
        <SectionTitle id="how-title">How To Play</SectionTitle>
        <Steps>
          <li>
            <h3>Pick a prize</h3>
            <p>Browse our competitions and choose the prize you would love to win.</p>
          </li>
          <li>
            <h3>Choose your numbers</h3>
            <p>Pick your lucky numbers or use Lucky Dip, add tickets to your cart and check out securely.</p>
          </li>
          <li>
            <h3>Watch and win</h3>
            <p>Watch the live draws and receive your prize at your door.</p>
          </li>
        </Steps>
        <Center>
          <Link href="/competitions" asChild>
            <ButtonLink>View Competitions</ButtonLink>
          </Link>
        </Center>
      </section>
    </>
  );
}

export default function HomePage() {
  const siteName = useSiteName();
  const [category, setCategory] = useCategoryParam();
  const hero = useRoute<typeof CATALOGUE_ROUTES.heroImage>(
    { method: 'GET', path: '/api/admin/hero-image' },
    {},
  );
  // Nothing until the setting is known: fetching the default first would waste the LCP request.
  const heroUrl = hero.data?.imageUrl ?? (hero.loading ? undefined : '/images/hero-default.svg');
  const offer = useSignUpOfferForVisitor();
  const list = useRoute<typeof CATALOGUE_ROUTES.competitions>(
    { method: 'GET', path: '/api/competitions' },
    category === 'all' ? {} : { query: { category: capitalise(category) } },
  );
  const [sort, setSort] = useSortParam();
  const [draw, setDraw] = useDrawTypeParam();
  const shown = useMemo(() => arrangeCompetitions(list.data ?? [], sort, draw), [list.data, sort, draw]);
  const phone = useMediaQuery(`(max-width: ${theme.breakpoints.sm - 1}px)`);
  const [expanded, setExpanded] = useState(false);
  const folded = phone && !expanded && shown.length > PHONE_CARD_LIMIT;

  useEffect(() => {
    document.title = `${siteName} | Win prizes from the South West`;
  }, [siteName]);

  return (
    <>
      <Hero data-testid="hero">
        {/* Drawn to cover the hero by CSS; the size only states its proportions (no layout shift). */}
        {heroUrl && (
          <HeroPicture
            src={heroUrl}
            alt=""
            sizes="100vw"
            width={1600}
            height={600}
            priority
            data-testid="hero-image"
          />
        )}
        <HeroInner>
          <Headline>1000's OF PRIZES TO BE WON</Headline>
          <ButtonLink href="#competitions">ENTER TO WIN</ButtonLink>
          {offer && <HeroOffer>{offerLine(offer)}</HeroOffer>}
        </HeroInner>
      </Hero>
      <PageContainer>
        <OpeningSoonRow competitions={list.data ?? []} />
        <section id="competitions" aria-labelledby="competitions-title">
          <ListHead>
            <ListTitle id="competitions-title">Live Competitions</ListTitle>
            <CategoryBar value={category} onChange={setCategory} />
            <ListControls sort={sort} onSort={setSort} draw={draw} onDraw={setDraw} />
          </ListHead>
          {list.loading && !list.data ? (
            <PlaceholderCards count={8} />
          ) : list.error ? (
            <Empty role="alert">We couldn't load the competitions. Please try again.</Empty>
          ) : shown.length > 0 ? (
            <>
              <CardGrid role="group" aria-label={`${categoryLabel(category)} competitions`}>
                {(folded ? shown.slice(0, PHONE_CARD_LIMIT) : shown).map((c) => (
                  <CompetitionCard key={c.id} competition={c} />
                ))}
              </CardGrid>
              {folded && (
                <Center>
                  <Button type="button" onClick={() => setExpanded(true)}>
                    Show all {shown.length} competitions
                  </Button>
                </Center>
              )}
            </>
          ) : (
            <Empty>No competitions found in this category. Please try a different category.</Empty>
          )}
          <Center>
            <Link href="/competitions" asChild>
              <ButtonLink $variant="secondary">Browse All Competitions</ButtonLink>
            </Link>
          </Center>
        </section>

        <AboutCharitiesHowTo siteName={siteName} />
      </PageContainer>
    </>
  );
}
