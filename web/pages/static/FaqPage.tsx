import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { Card, Lead, PageContainer, PageTitle } from '../../components/ui/Page';
import { useSite, useSiteName } from '../../stores/site';
import { AccordionGroup, AccordionItem } from './Accordion';
import { FAQ_CATEGORIES, type FaqCategoryId, useFaqEntries } from './faqContent';
import {
  CardHeading,
  CtaRow,
  focusRing,
  inlineLinks,
  RouteButton,
  SectionTitle,
  SupportEmailLink,
} from './StaticParts';

type FaqFilter = 'all' | FaqCategoryId;

const FILTERS: readonly { id: FaqFilter; label: string }[] = [
  { id: 'all', label: 'All Questions' },
  ...FAQ_CATEGORIES,
];

export default function FaqPage() {
  const siteName = useSiteName();
  const supportEmail = useSite((s) => s.supportEmail);
  const entries = useFaqEntries();
  const [filter, setFilter] = useState<FaqFilter>('all');

  useEffect(() => {
    document.title = `Frequently Asked Questions | ${siteName}`;
  }, [siteName]);

  const visibleCategories = FAQ_CATEGORIES.filter((category) => filter === 'all' || category.id === filter);
  const visibleCount = entries.filter((entry) => filter === 'all' || entry.category === filter).length;
  const activeLabel = FILTERS.find((item) => item.id === filter)?.label ?? 'All Questions';

  return (
    <PageContainer>
      <PageTitle>Frequently Asked Questions</PageTitle>
      <Lead>
        Quick answers about entering {siteName} competitions, paying, draws and prizes. Choose a topic to
        narrow the list, then select a question to see the answer.
      </Lead>

      <Chips role="group" aria-label="Filter questions by topic">
        {FILTERS.map((item) => (
          <Chip
            key={item.id}
            type="button"
            aria-pressed={filter === item.id}
            onClick={() => setFilter(item.id)}
          >
            {item.label}
          </Chip>
        ))}
      </Chips>
      <ResultCount aria-live="polite">
        Showing {visibleCount} {visibleCount === 1 ? 'question' : 'questions'}
        {filter === 'all' ? '' : ` in ${activeLabel}`}
      </ResultCount>

      {visibleCategories.map((category) => {
        const headingId = `faq-${category.id}`;
        return (
          <section key={category.id} aria-labelledby={headingId}>
            <SectionTitle id={headingId}>{category.label}</SectionTitle>
            <AccordionGroup>
              {entries
                .filter((entry) => entry.category === category.id)
                .map((entry) => (
                  <AccordionItem key={entry.id} question={entry.question} headingLevel={3}>
                    {entry.answer}
                  </AccordionItem>
                ))}
            </AccordionGroup>
          </section>
        );
      })}

      <HelpCard aria-labelledby="faq-help">
        <CardHeading id="faq-help">Still need help?</CardHeading>
        <HelpText>
          Email us at <SupportEmailLink email={supportEmail} /> and a member of our team will reply within
          about 24 hours. The full rules for every competition are in our{' '}
          <Link href="/terms">Terms &amp; Conditions</Link>, and our{' '}
          <Link href="/how-to-play">How to Play</Link> guide walks you through entering step by step.
        </HelpText>
        <CtaRow>
          <RouteButton href="/competitions">View Competitions</RouteButton>
          <RouteButton href="/how-to-play" variant="ghost">
            How to Play
          </RouteButton>
        </CtaRow>
      </HelpCard>
    </PageContainer>
  );
}

const Chips = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
  margin-bottom: ${({ theme }) => theme.space.sm};
`;

const Chip = styled.button`
  min-height: 44px;
  padding: ${({ theme }) => `0 ${theme.space.md}`};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.brand};
  font-family: ${({ theme }) => theme.fonts.body};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 600;
  cursor: pointer;
  transition: background 0.15s ease, color 0.15s ease;
  &:hover {
    background: ${({ theme }) => theme.colors.muted};
  }
  &[aria-pressed='true'] {
    background: ${({ theme }) => theme.colors.brand};
    border-color: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.textInverse};
  }
  ${focusRing}
`;

const ResultCount = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const HelpCard = styled(Card)`
  margin-top: ${({ theme }) => theme.space.xxl};
  max-width: 75ch;
`;

const HelpText = styled.p`
  margin: 0;
  line-height: 1.65;
  ${inlineLinks}
`;
