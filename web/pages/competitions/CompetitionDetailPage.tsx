import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import type { CATALOGUE_ROUTES } from '../../../contract/apiCatalogue';
import type { DRAW_ROUTES } from '../../../contract/apiDraws';
import type { CompetitionEntry, PublicCompetition } from '../../../contract/competitions';
import type { PublicDraw } from '../../../contract/draw';
import { galleryOf } from '../../../contract/gallery';
import { formatLongDate, formatUkDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { winnerCount } from '../../../contract/prizes';
import { useRoute } from '../../api/call';
import { AutoWinProgress } from '../../components/competitions/AutoWinProgress';
import { Countdown } from '../../components/competitions/Countdown';
import { EntriesGrid } from '../../components/competitions/EntriesGrid';
import { FreeEntryRoute } from '../../components/competitions/FreeEntryRoute';
import { PrizeGallery } from '../../components/competitions/gallery/PrizeGallery';
import { enteredHeading, HoldersList } from '../../components/competitions/HoldersList';
import { InstantWinsPanel } from '../../components/competitions/InstantWinsPanel';
import { BuyingState, DraftBar, MinimumSalesNotice } from '../../components/competitions/LaunchState';
import { OddsAndFacts } from '../../components/competitions/OddsAndFacts';
import { PrizeDetails } from '../../components/competitions/PrizeDetails';
import { PrizeList } from '../../components/competitions/PrizeList';
import { ProgressBar } from '../../components/competitions/ProgressBar';
import { TitleActions } from '../../components/competitions/ShareButton';
import { useHasPassed } from '../../components/competitions/useHasPassed';
import { DrawBeaconInfo } from '../../components/draws/DrawBeaconInfo';
import { DrawCommitment } from '../../components/draws/DrawCommitment';
import { DrawDetails } from '../../components/draws/DrawDetails';
import { DrawReveal } from '../../components/draws/DrawReveal';
import { useReducedMotion } from '../../components/draws/useReducedMotion';
import { useRevealPhase } from '../../components/draws/useRevealPhase';
import { WinnerAnnouncement } from '../../components/draws/WinnerAnnouncement';
import { requestPick } from '../../components/purchase/pickRequest';
import { BuyBarSlot } from '../../components/purchase/StickyBuyBar';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { type LiveCompetition, useEditedCompetition, useLiveCompetition } from '../../live/competitionStore';
import { type LiveDraw, useLiveDraw } from '../../live/drawStore';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Back = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  margin-bottom: ${({ theme }) => theme.space.md};
  color: ${({ theme }) => theme.colors.brand};
  font-weight: 600;
  text-decoration: none;
`;

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  ${media.lg} { grid-template-columns: 1.1fr 1fr; align-items: start; }
`;

const Info = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h1 { margin: 0; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xxl}; }
  p { margin: 0; }
`;

const Badges = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.xs};
`;

const Badge = styled.span<{ $tone: 'live' | 'auto' | 'draw' | 'ended' }>`
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  color: ${({ theme }) => theme.colors.textInverse};
  background: ${({ $tone, theme }) =>
    $tone === 'auto'
      ? theme.colors.success
      : $tone === 'draw'
        ? theme.colors.danger
        : $tone === 'ended'
          ? theme.colors.textMuted
          : theme.colors.info};
`;

const Dates = styled.dl`
  display: grid;
  grid-template-columns: auto 1fr;
  gap: 2px ${({ theme }) => theme.space.md};
  margin: 0;
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; }
`;

const Price = styled.p`
  font-family: ${({ theme }) => theme.fonts.heading};
  font-size: ${({ theme }) => theme.fontSizes.xxl};
  font-weight: 700;
  small { font-size: ${({ theme }) => theme.fontSizes.md}; font-weight: 500; color: ${({ theme }) => theme.colors.textMuted}; }
`;

const Trust = styled.ul`
  display: flex;
  gap: ${({ theme }) => theme.space.lg};
  list-style: none;
  padding: 0;
  margin: 0;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.success};
  li::before { content: '✔ '; }
`;

const Section = styled.section`
  margin-top: ${({ theme }) => theme.space.xxl};
  h2 { color: ${({ theme }) => theme.colors.brand}; }
`;

const EntriesLayout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1.6fr 1fr; align-items: start; }
`;

const Closed = styled.p`
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.muted};
  font-weight: 600;
`;

/** The result to show: the competition's own (page load, competition:updated) or the live one. */
function drawOf(c: PublicCompetition, live: LiveDraw | undefined): PublicDraw | null {
  if (c.draw) return c.draw;
  const r = live?.result;
  return r
    ? {
        // Every live draw since the beacon follows rule 2; competition:updated brings its round.
        version: 2,
        seed: r.seed,
        entriesHash: r.entriesHash,
        winningNumber: r.winningNumber,
        winnerName: r.winnerName,
        // Entered by an admin later; the page's reload or competition:updated brings it.
        winnerTown: null,
        drawnAt: r.receivedAt,
      }
    : null;
}

/**
 * What takes the buying controls' place once entries close: the live reveal, the winner, or why
 * there is no winner yet.
 */
function ClosedState({
  competition,
  phase,
  draw,
  reducedMotion,
}: {
  competition: PublicCompetition;
  phase: ReturnType<typeof useRevealPhase>;
  draw: PublicDraw | null;
  reducedMotion: boolean;
}) {
  if (phase === 'drawing')
    return <DrawReveal totalTickets={competition.totalTickets} reducedMotion={reducedMotion} />;
  if (draw) return <WinnerAnnouncement draw={draw} />;
  return (
    <Closed data-testid="competition-closed">
      This competition is closed to new entries.{' '}
      {competition.ticketsSold === 0
        ? 'No tickets were sold, so there is nothing to draw.'
        : competition.autoWin
          ? 'The winner is drawn automatically.'
          : 'The winner will be drawn live here soon: keep this page open to watch.'}
    </Closed>
  );
}

/** The spec's missing-competition page, titled as such (never 'Competition | …'). */
function NotFound() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Competition not found | ${siteName}`;
  }, [siteName]);
  return (
    <CenteredMessage>
      <h1>Competition not found</h1>
      <p>This competition may have closed or never existed.</p>
      <Link href="/" asChild>
        <ButtonLink>Return to Homepage</ButtonLink>
      </Link>
    </CenteredMessage>
  );
}

function Entries({
  competition,
  entries,
  live,
  onSale,
}: {
  competition: PublicCompetition;
  entries: CompetitionEntry[];
  live: LiveCompetition | undefined;
  /** Tickets are on sale: an available number opens the selector with it picked. */
  onSale: boolean;
}) {
  return (
    <Section aria-labelledby="entries-title">
      <h2 id="entries-title">Entries</h2>
      <EntriesLayout>
        <EntriesGrid
          totalTickets={competition.totalTickets}
          entries={entries}
          live={live}
          onPick={onSale ? (n) => requestPick(competition.id, n) : undefined}
        />
        <div>
          {entries.length === 0 ? (
            <Card>
              <h3>No entries yet</h3>
              <p>Be the first to enter this competition!</p>
            </Card>
          ) : (
            <>
              <h3>{enteredHeading(entries.length)}</h3>
              <HoldersList entries={entries} />
            </>
          )}
        </div>
      </EntriesLayout>
    </Section>
  );
}

/**
 * The holders list and its 'N people have entered' follow the live grid: read again whenever the
 * live count of tickets sold changes (a purchase, a cancelled order, a fresh snapshot).
 */
function useEntriesFollowSales(ticketsSold: number | undefined, reload: () => void) {
  const seen = useRef(ticketsSold);
  useEffect(() => {
    if (ticketsSold === undefined) return;
    const before = seen.current;
    seen.current = ticketsSold;
    if (before !== undefined && before !== ticketsSold) reload();
  }, [ticketsSold, reload]);
}

/**
 * A missing competition, or an id that could be none (/competitions/abc): not found, as the
 * server's 404 for that path says; any other failure says so.
 */
function CompetitionUnavailable({ error }: { error: Error | undefined }) {
  const status = (error as { status?: number } | undefined)?.status;
  if (!error || status === 404 || status === 400) {
    return (
      <PageContainer>
        <NotFound />
      </PageContainer>
    );
  }
  return (
    <PageContainer>
      <CenteredMessage role="alert">
        <h1>Something went wrong</h1>
        <p>{error.message}</p>
      </CenteredMessage>
    </PageContainer>
  );
}

/** Live or ended, the kind of draw, and how many winners when there are several. */
function HeaderBadges({ competition: c, ended }: { competition: PublicCompetition; ended: boolean }) {
  const cancelled = c.status === 'cancelled';
  const { autoWin } = c;
  const winners = winnerCount(c.prizes);
  return (
    <Badges>
      {cancelled ? (
        <Badge $tone="ended">Cancelled</Badge>
      ) : ended ? (
        <Badge $tone="ended">Competition Ended</Badge>
      ) : (
        <Badge $tone="live">Live Competition</Badge>
      )}
      <Badge $tone={autoWin ? 'auto' : 'draw'}>{autoWin ? 'AUTO WIN' : 'LIVE DRAW'}</Badge>
      {winners > 1 && <Badge $tone="live">{winners} winners</Badge>}
    </Badges>
  );
}

/** When it started and ends, and the price of a ticket. */
function DatesAndPrice({ competition: c }: { competition: PublicCompetition }) {
  return (
    <>
      <Dates>
        <dt>Starts</dt>
        <dd>{formatLongDate(c.createdAt)}</dd>
        <dt>{c.autoWin ? 'Closes' : 'Ends'}</dt>
        <dd data-testid="end-date">{formatUkDateTime(c.endDate)}</dd>
      </Dates>
      <Price>
        {formatPounds(c.ticketPrice)} <small>per ticket</small>
      </Price>
    </>
  );
}

/** No buying on this page: not on sale, past its end date, or drawing. A draft previews as published. */
const closedHere = (status: string, endReached: boolean, phase: string) =>
  (status !== 'active' && status !== 'draft') || endReached || phase !== 'none';

export default function CompetitionDetailPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const competition = useRoute<typeof DRAW_ROUTES.competition>(
    { method: 'GET', path: '/api/competitions/:id' },
    { params: { id: id ?? '' } },
  );
  const entries = useRoute<typeof CATALOGUE_ROUTES.entries>(
    { method: 'GET', path: '/api/competitions/:id/entries' },
    competition.data ? { params: { id: competition.data.id } } : null,
  );
  const live = useLiveCompetition(competition.data?.id);
  useEntriesFollowSales(live?.ticketsSold, entries.reload);
  // An admin's edit (price, title, dates...) shows at once, without a reload.
  const c = useEditedCompetition(competition.data);
  const reducedMotion = useReducedMotion();
  const liveDraw = useLiveDraw(competition.data?.id);
  const phase = useRevealPhase(liveDraw, reducedMotion);
  // Sales stop at the end date (server clock) even before the server's close reaches this page.
  const endReached = useHasPassed(c?.endDate);
  const [barSlot, setBarSlot] = useState<HTMLDivElement | null>(null);

  // Only a competition names the page: a missing one is titled by the not-found page.
  useEffect(() => {
    if (c?.title) document.title = `${c.title} | ${siteName}`;
  }, [c?.title, siteName]);

  if (competition.loading && !c) return <Spinner label="Loading competition" />;
  if (!c) return <CompetitionUnavailable error={competition.error} />;

  const ended = closedHere(c.status, endReached, phase);
  // During the reveal the result (already in competition:updated) waits for the animation.
  const draw = phase === 'drawing' ? null : drawOf(c, liveDraw);
  return (
    <PageContainer>
      <Back href="/">← All Competitions</Back>
      {c.status === 'draft' && <DraftBar />}
      <MinimumSalesNotice competition={c} />
      <Layout>
        <PrizeGallery images={galleryOf(c)} title={c.title} />
        <Info>
          <HeaderBadges competition={c} ended={ended} />
          <h1>{c.title}</h1>
          <TitleActions competitionId={c.id} title={c.title} />
          <p>{c.description}</p>
          <DatesAndPrice competition={c} />
          {!c.autoWin && !ended && (
            <div>
              <p>Draw in:</p>
              <Countdown endDate={c.endDate} size="lg" />
            </div>
          )}
          <ProgressBar ticketsSold={live?.ticketsSold ?? c.ticketsSold} totalTickets={c.totalTickets} />
          {c.autoWin && !ended && (
            <AutoWinProgress
              ticketsSold={live?.ticketsSold ?? c.ticketsSold}
              totalTickets={c.totalTickets}
              endDate={c.endDate}
            />
          )}
          {ended ? (
            <ClosedState competition={c} phase={phase} draw={draw} reducedMotion={reducedMotion} />
          ) : (
            <BuyingState competition={c} live={live} barSlot={barSlot} />
          )}
          <FreeEntryRoute competition={c} closed={ended} />
          <OddsAndFacts competition={c} ticketsSold={live?.ticketsSold ?? c.ticketsSold} draw={draw} />
          <Trust>
            <li>Secure Payment</li>
            <li>Guaranteed Draw</li>
          </Trust>
          <DrawCommitment commitment={c.drawCommitment} drawn={draw !== null} />
          <DrawBeaconInfo beacon={c.drawBeacon ?? null} drawn={draw !== null} />
          <Link href={`/competitions/${c.id}/draw`} data-testid="draw-room-link">
            {draw ? 'Watch the draw again in the draw room' : 'Open the live draw room'}
          </Link>
        </Info>
      </Layout>
      <PrizeList prizes={c.prizes ?? []} pageImage={c.image} />
      <PrizeDetails productName={c.details.productName} features={c.features} />
      {(c.instantWins?.length ?? 0) > 0 && (
        <InstantWinsPanel
          competitionId={c.id}
          instantWins={c.instantWins ?? []}
          commitment={c.instantWinCommitment ?? null}
          reveal={c.instantWinReveal}
        />
      )}
      {draw && (
        <Section>
          <DrawDetails
            competitionId={c.id}
            drawCommitment={c.drawCommitment}
            draw={draw}
            beacon={c.drawBeacon ?? null}
            prizeCount={c.prizes?.length ?? 1}
          />
        </Section>
      )}
      {entries.data && <Entries competition={c} entries={entries.data} live={live} onSale={!ended} />}
      {entries.error && <p role="alert">We couldn't load the entries for this competition.</p>}
      <BuyBarSlot ref={setBarSlot} />
    </PageContainer>
  );
}
