import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import type { AdminCompetitionDetail } from '../../../contract/admin';
import { DRAW_ROUTES } from '../../../contract/apiDraws';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPounds, poundsToPence } from '../../../contract/money';
import { prizesOnShow } from '../../../contract/prizes';
import { messageOf } from '../../api/client';
import { AdminHeader, Muted, StatusBadge } from '../../components/admin/AdminUi';
import { AuditTrail } from '../../components/admin/AuditTrail';
import { CancelCompetition } from '../../components/admin/CancelCompetition';
import { DrawControl } from '../../components/admin/DrawControl';
import { FurtherPrizeWinners } from '../../components/admin/FurtherPrizeWinners';
import { InstantWinsList } from '../../components/admin/InstantWinsList';
import { LaunchQueuePanel } from '../../components/admin/LaunchQueuePanel';
import { PostalEntries } from '../../components/admin/PostalEntries';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Facts, WinnerDetails } from '../../components/admin/WinnerDetails';
import { PrizeList } from '../../components/competitions/PrizeList';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useInstantWinClaims } from '../../live/adminFeed';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1.4fr 1fr; align-items: start; }
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
  > div { display: grid; gap: ${({ theme }) => theme.space.lg}; min-width: 0; }
`;

const Details = styled(Facts)`
  dd.text { font-weight: 400; white-space: pre-line; }
`;

const Features = styled.ul`
  margin: 0;
  padding-left: 1.1rem;
  font-weight: 400;
`;

// The list as the public sees it, in a card of its own.
const Prizes = styled(PrizeList)`
  margin-top: 0;
`;

/** The admin view's prize facts in pence, for prizesOnShow (the public presenter's rule). */
const adminPrizeFacts = (c: AdminCompetitionDetail) => ({
  title: c.title,
  image: c.image,
  prizeValuePence: c.prizeValue === null ? null : poundsToPence(c.prizeValue),
  cashAlternativePence: c.cashAlternative === null ? null : poundsToPence(c.cashAlternative),
  mainPrizes: c.prizes,
});

/** The competition's fields as the admin set them. */
function CompetitionFacts({ c }: { c: AdminCompetitionDetail }) {
  return (
    <Card aria-labelledby="fields-title">
      <h2 id="fields-title">Details</h2>
      <Details>
        <dt>Status</dt>
        <dd>
          <StatusBadge $status={c.status} data-testid="admin-competition-status">
            {c.status}
          </StatusBadge>
        </dd>
        {c.description && (
          <>
            <dt>Description</dt>
            <dd className="text">{c.description}</dd>
          </>
        )}
        <dt>Type</dt>
        <dd>{c.autoWin ? 'Auto-win' : 'Live draw'}</dd>
        <dt>Ticket price</dt>
        <dd>{formatPounds(c.ticketPrice)}</dd>
        <dt>Tickets</dt>
        <dd>
          {c.ticketsSold.toLocaleString('en-GB')} sold of {c.totalTickets.toLocaleString('en-GB')}
        </dd>
        <dt>Max per person</dt>
        <dd>{c.maxTicketsPerUser ?? 'The site default (Site Settings)'}</dd>
        <dt>End date</dt>
        <dd>{formatDateTime(c.endDate)}</dd>
        <dt>Category</dt>
        <dd>{c.details.category ?? 'None'}</dd>
        {c.details.productName && (
          <>
            <dt>Product</dt>
            <dd>{c.details.productName}</dd>
          </>
        )}
        <dt>Prize value</dt>
        <dd data-testid="admin-prize-value">
          {c.prizeValue === null ? 'Not stated' : formatPounds(c.prizeValue)}
        </dd>
        {c.cashAlternative !== null && (
          <>
            <dt>Cash alternative</dt>
            <dd>{formatPounds(c.cashAlternative)}</dd>
          </>
        )}
        <dt>Skill questions</dt>
        <dd data-testid="admin-skill-questions">
          {c.skillQuestions.length === 0 ? (
            <>
              The default: {c.skillQuestion.question} (answer: {c.skillQuestion.answer})
            </>
          ) : (
            <Features>
              {c.skillQuestions.map((q) => (
                <li key={q.question}>
                  {q.question} ({q.options.join(', ')}; answer: {q.answer})
                </li>
              ))}
            </Features>
          )}
        </dd>
        {c.features.length > 0 && (
          <>
            <dt>Features</dt>
            <dd>
              <Features>
                {c.features.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </Features>
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(c.createdAt)}</dd>
        <dt>Last changed</dt>
        <dd>{formatDateTime(c.updatedAt)}</dd>
      </Details>
    </Card>
  );
}

/**
 * /admin/competitions/:id: the fields, the draw (status, Draw now, winner), the instant wins,
 * the postal entries and the audit trail.
 */
export default function AdminCompetitionDetailPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const detail = useAdminRoute(DRAW_ROUTES.adminCompetition, { params: { id: id ?? '' } });
  const c = detail.data;
  // A sale that wins an instant prize is pushed to the admins: read the list again.
  useInstantWinClaims(c?.id, detail.reload);
  useEffect(() => {
    document.title = `${c?.title ?? 'Competition'} | Admin | ${siteName}`;
  }, [c?.title, siteName]);

  return (
    <PageContainer>
      <AdminHeader
        title={c?.title ?? 'Competition'}
        back={{ href: '/admin/competitions', label: 'Back to Competitions' }}
      >
        {c && c.status !== 'archived' && (
          <Link href={`/competitions/${c.id}`} asChild>
            <ButtonLink $variant="ghost">View public page</ButtonLink>
          </Link>
        )}
      </AdminHeader>
      {!c ? (
        detail.error ? (
          <CenteredMessage role="alert">
            <h2>
              {(detail.error as { status?: number }).status === 404
                ? 'Competition not found'
                : 'Error loading the competition'}
            </h2>
            <p>{messageOf(detail.error, 'There was an error fetching the competition.')}</p>
          </CenteredMessage>
        ) : (
          <Spinner label="Loading competition" />
        )
      ) : (
        <Grid>
          <div>
            <Card aria-labelledby="draw-title">
              <h2 id="draw-title">Draw</h2>
              {c.drawStatus ? (
                <DrawControl competition={c} status={c.drawStatus} onDrawn={detail.reload} />
              ) : (
                <Muted>The draw status is not available.</Muted>
              )}
            </Card>
            {c.draw && (
              <Card aria-labelledby="winner-title">
                <h2 id="winner-title">
                  {(c.draw.prizes?.length ?? 1) > 1
                    ? `Winner of the 1st prize: ${c.draw.prizes?.[0]?.title}`
                    : 'Winner'}
                </h2>
                <WinnerDetails winner={c.draw} onChanged={detail.reload} />
                <FurtherPrizeWinners winner={c.draw} onChanged={detail.reload} />
              </Card>
            )}
            {!!c.instantWins?.length && (
              <Card aria-labelledby="instant-wins-title">
                <h2 id="instant-wins-title">Instant wins</h2>
                <InstantWinsList competitionId={c.id} wins={c.instantWins} onChanged={detail.reload} />
              </Card>
            )}
            {c.launchQueue && (
              <Card aria-labelledby="queue-title">
                <h2 id="queue-title">Launch queue</h2>
                <LaunchQueuePanel competitionId={c.id} />
              </Card>
            )}
            <Card aria-labelledby="postal-title">
              <h2 id="postal-title">Postal entries</h2>
              <PostalEntries
                competitionId={c.id}
                open={c.status === 'active' && !c.draw && Date.parse(c.endDate) > Date.now()}
                winnerOrderId={c.draw?.orderId ?? null}
                onChanged={detail.reload}
              />
            </Card>
            <Card aria-labelledby="cancel-title">
              <h2 id="cancel-title">Cancel and refund</h2>
              <CancelCompetition competition={c} onChanged={detail.reload} />
            </Card>
            <Card aria-labelledby="audit-title">
              <h2 id="audit-title">Audit trail</h2>
              <AuditTrail entries={c.auditLog} />
            </Card>
          </div>
          <div>
            <CompetitionFacts c={c} />
            <Card>
              <Prizes prizes={prizesOnShow(adminPrizeFacts(c))} compact />
            </Card>
          </div>
        </Grid>
      )}
    </PageContainer>
  );
}
