import { useMemo } from 'react';
import styled from 'styled-components';
import type { PublicCompetition } from '../../../contract/competitions';
import { serverNow } from '../../live/clock';
import { renderTime, useHydrated } from '../../ssr/seed';
import { CardGrid, CompetitionCard } from './CompetitionCard';

/** How far ahead the home page's 'Opening soon' row looks. */
export const OPENING_SOON_DAYS = 7;

const Title = styled.h2`
  margin: ${({ theme }) => `${theme.space.lg} 0 ${theme.space.md}`};
`;

/** The scheduled competitions opening within 7 days, soonest first. */
export function openingSoon(list: readonly PublicCompetition[], now: number): PublicCompetition[] {
  const until = now + OPENING_SOON_DAYS * 86_400_000;
  return list
    .filter((c) => c.startsAt && Date.parse(c.startsAt) > now && Date.parse(c.startsAt) <= until)
    .sort((a, b) => Date.parse(a.startsAt!) - Date.parse(b.startsAt!));
}

/** The home page's 'Opening soon' row: nothing when none is scheduled within the week. */
export function OpeningSoonRow({ competitions }: { competitions: readonly PublicCompetition[] }) {
  const now = useHydrated() ? serverNow() : renderTime();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the list changes, not every tick
  const soon = useMemo(() => openingSoon(competitions, now), [competitions]);
  if (!soon.length) return null;
  return (
    <section aria-labelledby="opening-soon-title" data-testid="opening-soon">
      <Title id="opening-soon-title">Opening soon</Title>
      <CardGrid role="group" aria-label="Opening soon">
        {soon.map((c) => (
          <CompetitionCard key={c.id} competition={c} />
        ))}
      </CardGrid>
    </section>
  );
}
