import { useEffect, useMemo } from 'react';
import styled from 'styled-components';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import { categoryLabel } from '../../../contract/categories';
import { useRoute } from '../../api/call';
import { CategoryBar } from '../../components/competitions/CategoryBar';
import { CardGrid, CompetitionCard, PlaceholderCards } from '../../components/competitions/CompetitionCard';
import { arrangeCompetitions, DRAW_TYPES, ListControls } from '../../components/competitions/listOptions';
import {
  useCategoryParam,
  useDrawTypeParam,
  useSortParam,
} from '../../components/competitions/useCategoryParam';
import { Button } from '../../components/ui/Button';
import { PageContainer, PageTitle } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

const Count = styled.p`
  color: ${({ theme }) => theme.colors.textMuted};
  margin: ${({ theme }) => `${theme.space.xs} 0 ${theme.space.md}`};
`;

const Alert = styled.div`
  border: 1px solid ${({ theme }) => theme.colors.danger};
  background: ${({ theme }) => theme.colors.dangerBg};
  color: ${({ theme }) => theme.colors.danger};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.md};
  margin-bottom: ${({ theme }) => theme.space.lg};
  h2 { margin: 0 0 4px; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  p { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.text}; }
`;

const Empty = styled.p`
  padding: ${({ theme }) => theme.space.xl};
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Strip = styled.p`
  margin-top: ${({ theme }) => theme.space.xl};
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  color: ${({ theme }) => theme.colors.textMuted};
  img { height: 26px; width: auto; }
`;

const plural = (n: number) => (n === 1 ? 'competition' : 'competitions');

export default function CompetitionsPage() {
  const siteName = useSiteName();
  const [category, setCategory] = useCategoryParam();
  // The page fetches everything once (retrying twice, 1 s apart) and filters on the client (spec).
  const { data, error, loading, reload } = useRoute<typeof CATALOGUE_ROUTES.competitions>(
    { method: 'GET', path: '/api/competitions' },
    {},
    {
      retries: 2,
      retryDelayMs: 1000,
    },
  );
  const [sort, setSort] = useSortParam();
  const [draw, setDraw] = useDrawTypeParam();
  const shown = useMemo(
    () =>
      arrangeCompetitions(
        (data ?? []).filter((c) => category === 'all' || c.category === category),
        sort,
        draw,
      ),
    [data, category, sort, draw],
  );

  useEffect(() => {
    document.title = `All Competitions | ${siteName}`;
  }, [siteName]);

  let content: React.ReactNode;
  if (error) {
    content = (
      <>
        <Alert role="alert">
          <h2>Error loading competitions</h2>
          <p>We encountered a problem while loading the competitions. Please try again.</p>
          <Button type="button" $variant="secondary" onClick={reload}>
            Retry
          </Button>
        </Alert>
        <PlaceholderCards count={4} text="Competition data unavailable" />
      </>
    );
  } else if (loading && !data) {
    content = <PlaceholderCards count={8} />;
  } else if (shown.length === 0) {
    content = (
      <Empty>
        {draw !== 'all'
          ? `No ${DRAW_TYPES[draw].toLowerCase()} in ${categoryLabel(category)} right now.`
          : category === 'all'
            ? 'No competitions found. Please check back later.'
            : `No ${categoryLabel(category)} competitions available right now.`}
      </Empty>
    );
  } else {
    content = (
      <CardGrid>
        {shown.map((c) => (
          <CompetitionCard key={c.id} competition={c} headingLevel="h2" />
        ))}
      </CardGrid>
    );
  }

  return (
    <PageContainer>
      <PageTitle>All Competitions</PageTitle>
      <CategoryBar value={category} onChange={setCategory} />
      <ListControls sort={sort} onSort={setSort} draw={draw} onDraw={setDraw} />
      {data && !error && (
        <Count data-testid="competition-count">
          Showing {shown.length} {plural(shown.length)} in {categoryLabel(category)}
        </Count>
      )}
      {content}
      <Strip>
        Secure payments with Mastercard and Visa
        <img src="/images/payments/mastercard.svg" alt="" width={41} height={26} />
        <img src="/images/payments/visa.svg" alt="" width={41} height={26} />
      </Strip>
    </PageContainer>
  );
}
