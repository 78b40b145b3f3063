import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import { Link } from 'wouter';
import {
  type TicketHistoryEntry,
  TicketLookupQuerySchema,
  type TicketLookupResult,
} from '../../../contract/admin';
import { ADMIN_CATALOGUE_ROUTES } from '../../../contract/apiAdminCatalogue';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { formatOrderNumber } from '../../../contract/checkout';
import { ERROR_CODES } from '../../../contract/errors';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { ApiError, errorDetails, messageOf } from '../../api/client';
import { AdminHeader, Control, FieldRow, Muted, StatusBadge } from '../../components/admin/AdminUi';
import { fullName } from '../../components/admin/fullName';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Button } from '../../components/ui/Button';
import { Form, fieldErrors } from '../../components/ui/Form';
import { Card, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { toast } from '../../stores/toast';
import { media } from '../../theme/theme';

const Result = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.lg};
  ${media.md} { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  h2 { margin: 0 0 ${({ theme }) => theme.space.xs}; font-size: ${({ theme }) => theme.fontSizes.lg}; color: ${({ theme }) => theme.colors.brand}; }
  dl { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 2px ${({ theme }) => theme.space.md}; margin: 0; }
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
`;

const EVENT_TEXT: Record<TicketHistoryEntry['event'], string> = {
  held: 'Held in a cart',
  sold: 'Sold',
  released: 'Released',
  cancelled: 'Order cancelled',
};

function History({ history }: { history: TicketHistoryEntry[] }) {
  if (history.length === 0) return <Muted>No history for this number.</Muted>;
  return (
    <ol aria-label="Ticket history">
      {history.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the history is fixed for one answer
        <li key={i}>
          <strong>{EVENT_TEXT[h.event]}</strong> {formatDateTime(h.at)}
          {h.orderId ? ` · order ${formatOrderNumber(h.orderId)}` : ''}
          {h.note ? ` · ${h.note}` : ''}
        </li>
      ))}
    </ol>
  );
}

/** ticket_not_found's details: the free number's past, when it has one. */
const FreeTicketSchema = v.object({
  history: v.array(
    v.object({
      event: v.picklist(['held', 'sold', 'released', 'cancelled']),
      at: v.string(),
      orderId: v.nullable(v.number()),
      userId: v.nullable(v.number()),
      note: v.nullable(v.string()),
    }),
  ),
}) satisfies v.GenericSchema<unknown, { history: TicketHistoryEntry[] }>;

type Outcome = { found: TicketLookupResult } | { missing: TicketHistoryEntry[] };

/** /admin/ticket-lookup: who holds a number in a competition, and what happened to it. */
export default function AdminTicketLookupPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Ticket Lookup | ${siteName}`;
  }, [siteName]);
  // Every competition, archived and ended ones too: their tickets are still worth finding.
  const competitions = useAdminRoute(ADMIN_CATALOGUE_ROUTES.adminCompetitions, {});
  const [competitionId, setCompetitionId] = useState('');
  const [number, setNumber] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();

  const search = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = v.safeParse(TicketLookupQuerySchema, { competitionId, number });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const query = { competitionId, number: number.trim() };
      setOutcome({ found: await call(ADMIN_ORDER_ROUTES.ticketLookup, { query }) });
    } catch (err) {
      if (err instanceof ApiError && err.code === ERROR_CODES.ticketNotFound) {
        setOutcome({ missing: errorDetails(err, FreeTicketSchema)?.history ?? [] });
      } else {
        setOutcome(undefined);
        toast({
          title: 'Error',
          description: messageOf(err, 'Failed to lookup ticket'),
          variant: 'destructive',
        });
      }
    } finally {
      setBusy(false);
    }
  };

  const clear = () => {
    setOutcome(undefined);
    setNumber('');
    setErrors({});
  };

  return (
    <PageContainer>
      <AdminHeader title="Ticket Lookup" />
      <Card>
        <Form onSubmit={(e) => void search(e)} noValidate>
          <FieldRow>
            <Control>
              <label htmlFor="lookup-competition">Competition</label>
              <select
                id="lookup-competition"
                value={competitionId}
                onChange={(e) => setCompetitionId(e.target.value)}
                aria-invalid={errors.competitionId ? true : undefined}
              >
                <option value="">{competitions.data ? 'Select a competition' : 'Loading…'}</option>
                {competitions.data?.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                    {c.status === 'active' ? '' : ` (${c.status})`}
                  </option>
                ))}
              </select>
              {errors.competitionId && <small>{errors.competitionId}</small>}
            </Control>
            <Control>
              <label htmlFor="lookup-number">Ticket number</label>
              <input
                id="lookup-number"
                inputMode="numeric"
                value={number}
                onChange={(e) => setNumber(e.target.value)}
                aria-invalid={errors.number ? true : undefined}
              />
              {errors.number && <small>{errors.number}</small>}
            </Control>
          </FieldRow>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? 'Searching…' : 'Search'}
            </Button>{' '}
            {outcome && (
              <Button type="button" $variant="ghost" onClick={clear}>
                Clear Results
              </Button>
            )}
          </div>
        </Form>
      </Card>
      {outcome && 'missing' in outcome && (
        <Result>
          <Card role="status" data-testid="ticket-not-found">
            <h2>Ticket not found</h2>
            <p>No ticket with that number exists for the selected competition.</p>
            {outcome.missing.length > 0 && (
              <>
                <h3>Earlier history</h3>
                <History history={outcome.missing} />
              </>
            )}
          </Card>
        </Result>
      )}
      {outcome && 'found' in outcome && <Found result={outcome.found} />}
    </PageContainer>
  );
}

function Found({ result: r }: { result: TicketLookupResult }) {
  return (
    <Result data-testid="ticket-result">
      <Card>
        <h2>Ticket #{r.ticket.number}</h2>
        <dl>
          <dt>Status</dt>
          <dd>
            <StatusBadge $status={r.ticket.status === 'sold' ? 'completed' : 'pending'}>
              {r.ticket.status === 'sold' ? 'Sold' : 'Held in a cart'}
            </StatusBadge>
          </dd>
          <dt>Ticket ID</dt>
          <dd>{r.ticket.id}</dd>
          <dt>Since</dt>
          <dd>{formatDateTime(r.ticket.createdAt)}</dd>
          {r.ticket.expiresAt && (
            <>
              <dt>Hold ends</dt>
              <dd>{formatDateTime(r.ticket.expiresAt)}</dd>
            </>
          )}
        </dl>
      </Card>
      <Card>
        <h2>Competition</h2>
        <dl>
          <dt>Title</dt>
          <dd>{r.competition.title}</dd>
          <dt>Price</dt>
          <dd>{formatPounds(r.competition.ticketPrice)}</dd>
          <dt>Ends</dt>
          <dd>{formatDateTime(r.competition.endDate)}</dd>
          <dt>Status</dt>
          <dd>{r.competition.status}</dd>
        </dl>
      </Card>
      <Card>
        <h2>User</h2>
        {r.user ? (
          <dl>
            <dt>Username</dt>
            <dd data-testid="ticket-user">{r.user.username}</dd>
            <dt>Name</dt>
            <dd>{fullName(r.user) || '—'}</dd>
            <dt>Email</dt>
            <dd>{r.user.email}</dd>
          </dl>
        ) : (
          <Muted>No account (a guest's hold, or a deleted user).</Muted>
        )}
      </Card>
      <Card>
        <h2>Order</h2>
        {r.order ? (
          <dl>
            <dt>Order</dt>
            <dd data-testid="ticket-order">
              <Link href={`/admin/orders/${r.order.id}`}>{r.order.orderNumber}</Link>
            </dd>
            <dt>Status</dt>
            <dd>{r.order.status}</dd>
            <dt>Total</dt>
            <dd>{formatPounds(r.order.total)}</dd>
            <dt>Placed</dt>
            <dd>{formatDateTime(r.order.createdAt)}</dd>
          </dl>
        ) : (
          <Muted>Not ordered yet.</Muted>
        )}
      </Card>
      <Card style={{ gridColumn: '1 / -1' }}>
        <h2>Ticket history</h2>
        <History history={r.history} />
      </Card>
    </Result>
  );
}
