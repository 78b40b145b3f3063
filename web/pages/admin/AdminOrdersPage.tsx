import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { OrderListQuery } from '../../../contract/admin';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import { ADMIN_ORDER_ROUTES } from '../../../contract/apiAdminOrders';
import { ORDER_STATUSES } from '../../../contract/checkout';
import { formatDateTime } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Control, SearchBox, StatusBadge, Toolbar } from '../../components/admin/AdminUi';
import { CsvLink } from '../../components/admin/CsvLink';
import { Pager } from '../../components/admin/Pager';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { Button, ButtonLink } from '../../components/ui/Button';
import { CenteredMessage, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';

const PAGE_SIZE = 25;

/** /admin/orders: every order, filtered by status, searched by order number or e-mail, paged. */
export default function AdminOrdersPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Orders | ${siteName}`;
  }, [siteName]);
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const list = useAdminRoute(ADMIN_ORDER_ROUTES.adminOrders, {
    query: {
      page: String(page),
      pageSize: String(PAGE_SIZE),
      // The select offers only the schema's statuses.
      status: (status || undefined) as OrderListQuery['status'],
      search: search || undefined,
    },
  });

  const data = list.data;
  return (
    <PageContainer>
      <AdminHeader title="Order Management">
        <CsvLink route={ADMIN_BACK_OFFICE_ROUTES.ordersCsv} fallbackName="orders.csv">
          Orders CSV
        </CsvLink>
      </AdminHeader>
      <Toolbar>
        <Control style={{ minWidth: 160 }}>
          <label htmlFor="order-status">Status</label>
          <select
            id="order-status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All statuses</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.charAt(0).toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </Control>
        <SearchBox
          id="order-search"
          label="Order number or email"
          placeholder="ORD-0000000012 or name@example.co.uk"
          onSearch={(typed) => {
            setSearch(typed);
            setPage(1);
          }}
        />
      </Toolbar>
      <AdminTable
        label="Orders"
        rows={data?.orders}
        error={list.error}
        loadingLabel="Loading orders"
        errorView={
          <CenteredMessage role="alert">
            <h2>Error Loading Orders</h2>
            <p>There was an error fetching the orders data.</p>
            <Button type="button" onClick={list.reload}>
              Retry
            </Button>
          </CenteredMessage>
        }
        empty="No orders match."
        rowKey={(o) => o.id}
        rowTestId="order-row"
        columns={[
          { header: 'Order', className: 'nowrap', cell: (o) => o.orderNumber },
          { header: 'Date', className: 'nowrap', cell: (o) => formatDateTime(o.createdAt) },
          {
            header: 'Customer',
            cell: (o) =>
              o.postalEntrant ? (
                <>
                  Postal entry: {o.postalEntrant.name}
                  <br />
                  <small>{o.postalEntrant.email}</small>
                </>
              ) : o.user ? (
                <>
                  {o.user.username}
                  <br />
                  <small>{o.user.email}</small>
                </>
              ) : (
                'Deleted user'
              ),
          },
          { header: 'Items', cell: (o) => o.items.map((i) => `${i.title} × ${i.quantity}`).join(', ') },
          { header: 'Total', className: 'num', cell: (o) => formatPounds(o.subtotal) },
          { header: 'Status', cell: (o) => <StatusBadge $status={o.status}>{o.status}</StatusBadge> },
        ]}
        actions={(o) => (
          <Link href={`/admin/orders/${o.id}`} asChild>
            <ButtonLink $variant="ghost" aria-label={`View ${o.orderNumber}`}>
              View
            </ButtonLink>
          </Link>
        )}
        footer={data && <Pager info={data} noun="orders" onPage={setPage} />}
      />
    </PageContainer>
  );
}
