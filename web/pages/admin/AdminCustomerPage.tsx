import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import type { CustomerView } from '../../../contract/backOffice';
import { formatDateTime, formatShortDate } from '../../../contract/londonTime';
import { formatPence, formatPounds } from '../../../contract/money';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Muted, StatusBadge } from '../../components/admin/AdminUi';
import { CreditAdjustment, CustomerNotes, CustomerReferrals } from '../../components/admin/CustomerPanels';
import { fullName } from '../../components/admin/fullName';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Card, CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Grid = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1fr 1fr; align-items: start; }
  > * { min-width: 0; }
  section + section { margin-top: ${({ theme }) => theme.space.lg}; }
  h2 { margin: 0 0 ${({ theme }) => theme.space.sm}; color: ${({ theme }) => theme.colors.brand}; font-size: ${({ theme }) => theme.fontSizes.lg}; }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: ${({ theme }) => theme.space.xxs} ${({ theme }) => theme.space.md};
  margin: 0;
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
`;

function Account({ c }: { c: CustomerView }) {
  const u = c.user;
  return (
    <Card aria-labelledby="account-title">
      <h2 id="account-title">Account</h2>
      <Facts>
        <dt>Username</dt>
        <dd>{u.username}</dd>
        <dt>Name</dt>
        <dd>{fullName(u) || '—'}</dd>
        <dt>E-mail</dt>
        <dd>
          {u.email} {u.emailVerified ? '(confirmed)' : '(not confirmed)'}
        </dd>
        <dt>Role</dt>
        <dd>
          <StatusBadge $status={u.role}>{u.role}</StatusBadge>
        </dd>
        <dt>Joined</dt>
        <dd>{formatShortDate(u.createdAt)}</dd>
        <dt>Site credit</dt>
        <dd data-testid="customer-credit">{formatPounds(c.creditBalance)}</dd>
      </Facts>
    </Card>
  );
}

function Protection({ c }: { c: CustomerView }) {
  const { spendLimits, selfExcludedUntil } = c.protection;
  const limit = spendLimits.monthlySpendLimitPence;
  const pending = spendLimits.pending;
  return (
    <Card aria-labelledby="protection-title">
      <h2 id="protection-title">Protection settings</h2>
      <Facts>
        <dt>Monthly spend limit</dt>
        <dd>{limit === null ? 'None set' : formatPence(limit)}</dd>
        {pending && (
          <>
            <dt>Change pending</dt>
            <dd>
              {pending.monthlySpendLimitPence === null
                ? 'No limit'
                : formatPence(pending.monthlySpendLimitPence)}{' '}
              from {formatDateTime(pending.effectiveAt)}
            </dd>
          </>
        )}
        <dt>Spent this month</dt>
        <dd>{formatPence(spendLimits.spentThisMonthPence)}</dd>
        <dt>Taking a break</dt>
        <dd>{selfExcludedUntil ? `Until ${formatDateTime(selfExcludedUntil)}` : 'No'}</dd>
      </Facts>
    </Card>
  );
}

function Lists({ c }: { c: CustomerView }) {
  return (
    <>
      <Card aria-labelledby="orders-title">
        <h2 id="orders-title">Orders</h2>
        <AdminTable
          label="Orders"
          rows={c.orders}
          error={undefined}
          loadingLabel="Loading orders"
          empty="No orders."
          rowKey={(o) => o.id}
          rowTestId="customer-order"
          columns={[
            {
              header: 'Order',
              className: 'nowrap',
              cell: (o) => <Link href={`/admin/orders/${o.id}`}>{o.orderNumber}</Link>,
            },
            { header: 'Date', className: 'nowrap', cell: (o) => formatDateTime(o.createdAt) },
            { header: 'Status', cell: (o) => <StatusBadge $status={o.status}>{o.status}</StatusBadge> },
            { header: 'Paid', className: 'num', cell: (o) => formatPounds(o.total) },
          ]}
        />
      </Card>
      <Card aria-labelledby="entries-title">
        <h2 id="entries-title">Entries</h2>
        <AdminTable
          label="Entries"
          rows={c.entries}
          error={undefined}
          loadingLabel="Loading entries"
          empty="No entries."
          rowKey={(e) => `${e.orderId}-${e.competitionId}`}
          columns={[
            {
              header: 'Competition',
              cell: (e) => <Link href={`/admin/competitions/${e.competitionId}`}>{e.title}</Link>,
            },
            { header: 'Numbers', cell: (e) => e.ticketNumbers.join(', ') },
            { header: 'Bought', className: 'nowrap', cell: (e) => formatShortDate(e.purchasedAt) },
          ]}
        />
      </Card>
    </>
  );
}

/** /admin/users/:id: one customer, their orders, entries, credit ledger, notes, protection and referrals. */
export default function AdminCustomerPage() {
  const { id } = useParams<{ id: string }>();
  const siteName = useSiteName();
  const view = useAdminRoute(ADMIN_BACK_OFFICE_ROUTES.customer, { params: { userId: id ?? '' } });
  const c = view.data;
  useEffect(() => {
    document.title = `${c ? c.user.username : 'Customer'} | ${siteName}`;
  }, [c, siteName]);

  return (
    <PageContainer>
      <AdminHeader
        title={c ? `Customer ${c.user.username}` : 'Customer'}
        back={{ href: '/admin/users', label: 'All Customers' }}
      />
      {!c ? (
        view.error ? (
          <CenteredMessage role="alert">
            <h2>
              {(view.error as { status?: number }).status === 404
                ? 'Customer not found'
                : 'Error loading customer'}
            </h2>
            <p>{messageOf(view.error, 'The customer could not be loaded.')}</p>
          </CenteredMessage>
        ) : (
          <Spinner label="Loading customer" />
        )
      ) : (
        <Grid>
          <div>
            <Account c={c} />
            <Protection c={c} />
            <Card aria-labelledby="credit-title">
              <h2 id="credit-title">Site credit</h2>
              <CreditAdjustment customer={c} onSaved={view.reload} />
              {c.ledger.length === 0 ? (
                <Muted>No credit movements.</Muted>
              ) : (
                <AdminTable
                  label="Credit ledger"
                  rows={c.ledger}
                  error={undefined}
                  loadingLabel="Loading ledger"
                  empty="No credit movements."
                  rowKey={(t) => t.id}
                  rowTestId="ledger-row"
                  columns={[
                    { header: 'Date', className: 'nowrap', cell: (t) => formatDateTime(t.createdAt) },
                    {
                      header: 'Amount',
                      className: 'num',
                      cell: (t) => `${t.type === 'debit' ? '−' : '+'}${formatPounds(t.amount)}`,
                    },
                    { header: 'Description', cell: (t) => t.description },
                  ]}
                />
              )}
            </Card>
            <Card aria-labelledby="notes-title">
              <h2 id="notes-title">Notes</h2>
              <CustomerNotes userId={c.user.id} notes={c.notes} onSaved={view.reload} />
            </Card>
            <CustomerReferrals customer={c} />
          </div>
          <div>
            <Lists c={c} />
          </div>
        </Grid>
      )}
    </PageContainer>
  );
}
