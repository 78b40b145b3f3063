import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import {
  type EntryStatus,
  entryStatus,
  formatOrderNumber,
  mainPrizesWon,
  type UserEntryView,
} from '../../../contract/checkout';
import { formatLongDate, formatUkDateTime } from '../../../contract/londonTime';
import { formatPence, poundsToPence } from '../../../contract/money';
import { ordinal } from '../../../contract/prizes';
import { useRoute } from '../../api/call';
import { MyPrizeClaims } from '../../components/account/MyPrizeClaims';
import { LoginDialog } from '../../components/auth/LoginDialog';
import { Countdown } from '../../components/competitions/Countdown';
import { useHasPassed } from '../../components/competitions/useHasPassed';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { serverNow } from '../../live/clock';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Count = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.lg};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Groups = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
`;

const Group = styled(Card)`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  ${media.md} { grid-template-columns: 200px 1fr; align-items: start; }
  img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: ${({ theme }) => theme.radii.md}; }
  h2 { margin: 0; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.xl}; }
  p { margin: 0; }
  .tickets { font-weight: 700; color: ${({ theme }) => theme.colors.success}; }
`;

const Body = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
`;

const Purchases = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: ${({ theme }) => theme.space.sm};
  li { border: 1px solid ${({ theme }) => theme.colors.border}; border-radius: ${({ theme }) => theme.radii.md}; padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md}; display: grid; gap: 4px; }
  .head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: ${({ theme }) => theme.space.sm}; font-weight: 600; }
  .date { color: ${({ theme }) => theme.colors.textMuted}; font-weight: 400; }
  .numbers { font-size: ${({ theme }) => theme.fontSizes.sm}; overflow-wrap: anywhere; }
  .instant { margin: 0; font-weight: 700; color: ${({ theme }) => theme.colors.success}; }
`;

const StatusBadge = styled.span<{ $status: EntryStatus }>`
  justify-self: start;
  padding: 2px 10px;
  border-radius: ${({ theme }) => theme.radii.pill};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  font-weight: 700;
  border: 1px solid currentColor;
  color: ${({ $status, theme }) =>
    $status === 'won'
      ? theme.colors.success
      : $status === 'open'
        ? theme.colors.info
        : theme.colors.textMuted};
  background: ${({ theme }) => theme.colors.surface};
`;

const DrawInfo = styled.div`
  display: grid;
  gap: 4px;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  p { font-weight: 600; }
`;

const Actions = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space.sm};
  justify-content: center;
  margin-top: ${({ theme }) => theme.space.xl};
`;

interface CompetitionGroup {
  competition: UserEntryView['competition'];
  entries: UserEntryView[];
  tickets: number;
  numbers: number[];
}

/** Entries grouped by competition, newest purchase first (groups ordered by their newest one). */
export function groupEntries(entries: UserEntryView[]): CompetitionGroup[] {
  const sorted = [...entries].sort((a, b) => Date.parse(b.purchasedAt) - Date.parse(a.purchasedAt));
  const groups = new Map<number, CompetitionGroup>();
  for (const e of sorted) {
    const group = groups.get(e.competitionId) ?? {
      competition: e.competition,
      entries: [],
      tickets: 0,
      numbers: [],
    };
    group.entries.push(e);
    group.tickets += e.ticketNumbers.length;
    group.numbers.push(...e.ticketNumbers);
    groups.set(e.competitionId, group);
  }
  return [...groups.values()];
}

/** Each status in words, with a sign so that it never rests on colour alone. */
const STATUS_TEXT: Record<EntryStatus, [sign: string, words: string]> = {
  open: ['●', 'Open'],
  drawing: ['◔', 'Closed: drawing soon'],
  drawn: ['✓', 'Drawn'],
  won: ['★', 'You won!'],
};

/** The draw's date and countdown, the status, and 'View Results' only once there are results. */
function DrawStatus({ group: { competition: c, numbers } }: { group: CompetitionGroup }) {
  // Re-renders at the closing time, so 'open' turns into 'drawing' on the server's clock.
  useHasPassed(c.endDate);
  const status = entryStatus(numbers, c, serverNow());
  const several = (c.draw?.prizes?.length ?? 1) > 1;
  return (
    <DrawInfo data-testid="entry-draw">
      <StatusBadge $status={status} data-status={status}>
        <span aria-hidden="true">{STATUS_TEXT[status][0]}</span> {STATUS_TEXT[status][1]}
      </StatusBadge>
      {c.draw ? (
        <>
          <p>
            Drawn on {formatUkDateTime(c.draw.drawnAt)}:{' '}
            {several
              ? (c.draw.prizes ?? [])
                  .map((p) => `${ordinal(p.position)} prize #${p.winningNumber}`)
                  .join(', ')
              : `winning ticket #${c.draw.winningNumber}`}
          </p>
          {mainPrizesWon(numbers, c.draw).map((p) => (
            <p key={p.position} data-testid="entry-prize-won">
              You won {several ? `the ${ordinal(p.position)} prize, ` : ''}
              {p.title || c.title} with ticket #{p.winningNumber}
            </p>
          ))}
          <div>
            <Link href={`/competition/${c.id}`} asChild>
              <ButtonLink $variant="secondary">View Results</ButtonLink>
            </Link>
          </div>
        </>
      ) : (
        <>
          <p>
            {c.autoWin
              ? `Drawn the moment the last ticket sells, or at the latest on ${formatUkDateTime(c.endDate)}`
              : `Draw on ${formatUkDateTime(c.endDate)}`}
          </p>
          {status === 'open' && <Countdown endDate={c.endDate} />}
          <Link href={`/competition/${c.id}`}>View the competition</Link>
        </>
      )}
    </DrawInfo>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function SignedOut() {
  const [open, setOpen] = useState(false);
  return (
    <CenteredMessage>
      <h1>Authentication Required</h1>
      <p>Please log in to view your competition entries.</p>
      <Button type="button" onClick={() => setOpen(true)}>
        Log In
      </Button>
      <LoginDialog
        open={open}
        onClose={() => setOpen(false)}
        description="Please log in to view your competition entries."
      />
    </CenteredMessage>
  );
}

function Entries() {
  const entries = useRoute<typeof ORDER_ROUTES.userEntries>(
    { method: 'GET', path: '/api/user-entries' },
    {},
    { retries: 3, retryDelayMs: 1000 },
  );
  if (entries.loading && !entries.data) return <Spinner label="Loading your entries" />;
  if (entries.error) {
    return (
      <CenteredMessage role="alert">
        <h1>Failed to fetch user entries</h1>
        <p>{entries.error.message}</p>
        <Button type="button" onClick={entries.reload}>
          Retry
        </Button>
      </CenteredMessage>
    );
  }
  const list = entries.data ?? [];
  if (list.length === 0) {
    return (
      <CenteredMessage>
        <h1>No Entries Yet</h1>
        <p>You haven't purchased any competition tickets yet.</p>
        <Link href="/competitions" asChild>
          <ButtonLink>Browse Competitions</ButtonLink>
        </Link>
      </CenteredMessage>
    );
  }
  return (
    <>
      <PageTitle>My Entries</PageTitle>
      <MyPrizeClaims />
      {/* Tickets, not purchases: five tickets bought in two orders are five entries into draws. */}
      <Count>
        Showing{' '}
        {plural(
          list.reduce((n, e) => n + e.ticketNumbers.length, 0),
          'ticket',
          'tickets',
        )}
      </Count>
      <Groups>
        {groupEntries(list).map((group) => {
          const { competition: c, entries: purchases, tickets } = group;
          return (
            <Group key={c.id} aria-labelledby={`entry-${c.id}`} data-testid="entry-group">
              <img src={c.image ?? '/images/placeholder.svg'} alt="" />
              <Body>
                <h2 id={`entry-${c.id}`}>{c.title}</h2>
                <p>{c.description}</p>
                <p className="tickets">{plural(tickets, 'ticket', 'tickets')}</p>
                <DrawStatus group={group} />
                <Purchases>
                  {purchases.map((e) => (
                    <li key={e.id}>
                      <div className="head">
                        <span data-testid="entry-order">Order {formatOrderNumber(e.orderId)}</span>
                        <span className="date">{formatLongDate(e.purchasedAt)}</span>
                      </div>
                      <div className="numbers" data-testid="entry-numbers">
                        Ticket numbers: {e.ticketNumbers.join(', ')}
                      </div>
                      {(e.instantWins ?? []).map((w) => (
                        <p key={w.id} className="instant" data-testid="entry-instant-won">
                          <span aria-hidden="true">★</span> You won {w.title} instantly with ticket #
                          {w.number}
                        </p>
                      ))}
                      <div>
                        Total:{' '}
                        <strong>
                          {formatPence(poundsToPence(e.paid ?? c.ticketPrice * e.ticketNumbers.length))}
                        </strong>
                      </div>
                    </li>
                  ))}
                </Purchases>
              </Body>
            </Group>
          );
        })}
      </Groups>
    </>
  );
}

/** /my-competitions: the signed-in customer's tickets, by competition. */
export default function MyEntriesPage() {
  const siteName = useSiteName();
  const user = useAuth((s) => s.user);
  const status = useAuth((s) => s.status);

  useEffect(() => {
    document.title = `My Entries | ${siteName}`;
  }, [siteName]);

  return (
    <PageContainer>
      {user ? (
        <Entries key={user.id} />
      ) : status === 'loading' ? (
        <Spinner label="Checking your account" />
      ) : (
        <SignedOut />
      )}
      <Actions>
        <Link href="/" asChild>
          <ButtonLink $variant="ghost">Return Home</ButtonLink>
        </Link>
      </Actions>
    </PageContainer>
  );
}
