import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { useRoute } from '../../api/call';
import { useSignUpOffer } from '../../components/promo/signUpOffer';
import { Card, Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';
import { focusRing, RelatedLinks, StaticProse } from './StaticParts';
import { clausesOf, EntryTermsContext, TERMS_SECTIONS } from './termsContent';

/** The Terms: a contents list and the numbered sections of `termsContent.tsx`. */
export default function TermsPage() {
  const siteName = useSiteName();
  const offerRuns = useSignUpOffer() !== null;
  const terms = useRoute<typeof CATALOGUE_ROUTES.entryTerms>(
    { method: 'GET', path: '/api/entry-terms' },
    {},
  ).data;

  useEffect(() => {
    document.title = `Terms & Conditions | ${siteName}`;
  }, [siteName]);

  return (
    <EntryTermsContext.Provider value={terms}>
      <PageContainer>
        <PageTitle>Terms &amp; Conditions</PageTitle>
        <Lead>
          Please read these terms carefully before entering a {siteName} competition. They explain who can
          enter, how draws work, and your rights if something goes wrong. How we use your personal data is
          explained in our <Link href="/privacy">Privacy Policy</Link>.
        </Lead>

        <Contents aria-labelledby="terms-contents" id="contents">
          <ContentsHeading id="terms-contents">Contents</ContentsHeading>
          <ContentsList>
            {TERMS_SECTIONS.map((section, index) => (
              <li key={section.title}>
                <a href={`#section-${index + 1}`}>
                  <span aria-hidden="true">{index + 1}.</span> {section.title}
                </a>
              </li>
            ))}
          </ContentsList>
        </Contents>

        <StaticProse>
          {TERMS_SECTIONS.map((section, index) => {
            const number = index + 1;
            const headingId = section.anchor ?? `section-${number}-title`;
            return (
              <section key={section.title} id={`section-${number}`} aria-labelledby={headingId}>
                <h2 id={headingId}>
                  {number}. {section.title}
                </h2>
                <Clauses>
                  {clausesOf(section, offerRuns).map((clause, clauseIndex) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed, never reordered list
                    <li key={clauseIndex}>
                      <ClauseNumber>
                        {number}.{clauseIndex + 1}
                      </ClauseNumber>
                      <span>{clause}</span>
                    </li>
                  ))}
                </Clauses>
                <BackToTop href="#contents">Back to contents</BackToTop>
              </section>
            );
          })}
        </StaticProse>

        <RelatedLinks
          links={[
            { href: '/privacy', label: 'Privacy Policy' },
            { href: '/cookies', label: 'Cookie Policy' },
            { href: '/faq', label: 'FAQs' },
            { href: '/how-to-play', label: 'How to Play' },
            { href: '/', label: 'Back to home' },
          ]}
        />
      </PageContainer>
    </EntryTermsContext.Provider>
  );
}

const Contents = styled(Card)`
  max-width: 75ch;
  margin-bottom: ${({ theme }) => theme.space.lg};
  scroll-margin-top: 7rem;
`;

const ContentsHeading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.lg};
  color: ${({ theme }) => theme.colors.brand};
`;

const ContentsList = styled.ol`
  display: grid;
  gap: ${({ theme }) => theme.space.xxs};
  margin: 0;
  padding: 0;
  list-style: none;
  ${media.sm} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    column-gap: ${({ theme }) => theme.space.lg};
  }
  a {
    display: inline-block;
    padding: ${({ theme }) => `${theme.space.xxs} 0`};
    color: ${({ theme }) => theme.colors.info};
    text-underline-offset: 2px;
    ${focusRing}
  }
`;

const Clauses = styled.ol`
  && {
    list-style: none;
    padding-left: 0;
  }
  && li {
    display: flex;
    gap: ${({ theme }) => theme.space.sm};
  }
  && li + li {
    margin-top: ${({ theme }) => theme.space.sm};
  }
`;

const ClauseNumber = styled.span`
  flex: 0 0 2.75rem;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.brand};
  font-variant-numeric: tabular-nums;
`;

const BackToTop = styled.a`
  display: inline-block;
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;
