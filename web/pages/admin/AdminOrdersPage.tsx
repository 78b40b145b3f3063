import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { OrderListView } from '../../../contract/admin';
import { ORDER_STATUSES } from '../../../contract/checkout';
import { formatPounds } from '../../../contract/money';
import {
  AdminHeader,
  Control,
  Muted,
  RowActions,
  StatusBadge,
  Table,
  TableWrap,
  Toolbar,
} from '../../components/admin/AdminUi';
import { formatDateTime } from '../../components/admin/formatAdmin';
import { useAdminData } from '../../components/admin/useAdminData';
import { Button, ButtonLink } from '../../components/ui/Button';
import { CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useSiteName } from '../../stores/site';

const PAGE_SIZE = 25;

const Search = styled.form`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  align-items: flex-end;
  > div { flex: 1 1 200px; }
`;

const Pager = styled.nav`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.md};
  margin-top: ${({ theme }) => theme.space.md};
`;

/** /admin/orders: every order, filtered by status, searched by order number or e-mail, paged. */
export default function AdminOrdersPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Orders | ${siteName}`;
  }, [siteName]);
  const [status, setStatus] = useState('');
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (status) query.set('status', status);
  if (search) query.set('search', search);
  const list = useAdminData<OrderListView>(`/api/admin/orders?${query}`);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearch(typed.trim());
    setPage(1);
  };

  const data = list.data;
  return (
    <PageContainer>
      <AdminHeader title="Order Management" />
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
        <Search onSubmit={submit} role="search">
          <Control>
            <label htmlFor="order-search">Order number or email</label>
            <input
              id="order-search"
              type="search"
              value={typed}
              placeholder="ORD-0000000012 or name@example.co.uk"
              onChange={(e) => setTyped(e.target.value)}
            />
          </Control>
          <Button type="submit" $variant="secondary">
            Search
          </Button>
        </Search>
      </Toolbar>
      {list.error && !data ? (
        <CenteredMessage role="alert">
          <h2>Error Loading Orders</h2>
          <p>There was an error fetching the orders data.</p>
          <Button type="button" onClick={list.reload}>
            Retry
          </Button>
        </CenteredMessage>
      ) : !data ? (
        <Spinner label="Loading orders" />
      ) : data.orders.length === 0 ? (
        <Muted>No orders match.</Muted>
      ) : (
        <>
          <TableWrap>
            <Table aria-label="Orders">
              <thead>
                <tr>
                  <th>Order</th>
                  <th>Date</th>
                  <th>Customer</th>
                  <th>Items</th>
                  <th>Total</th>
                  <th>Status</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.orders.map((o) => (
                  <tr key={o.id} data-testid="order-row">
                    <td className="nowrap">{o.orderNumber}</td>
                    <td className="nowrap">{formatDateTime(o.createdAt)}</td>
                    <td>
                      {o.user ? (
                        <>
                          {o.user.username}
                          <br />
                          <small>{o.user.email}</small>
                        </>
                      ) : (
                        'Deleted user'
                      )}
                    </td>
                    <td>{o.items.map((i) => `${i.title} × ${i.quantity}`).join(', ')}</td>
                    <td className="num">{formatPounds(o.subtotal)}</td>
                    <td>
                      <StatusBadge $status={o.status}>{o.status}</StatusBadge>
                    </td>
                    <td>
                      <RowActions>
                        <Link href={`/admin/orders/${o.id}`} asChild>
                          <ButtonLink $variant="ghost" aria-label={`View ${o.orderNumber}`}>
                            View
                          </ButtonLink>
                        </Link>
                      </RowActions>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </TableWrap>
          <Pager aria-label="Pages">
            <Button type="button" $variant="ghost" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {data.page} of {Math.max(1, data.totalPages)} ({data.total} orders)
            </span>
            <Button
              type="button"
              $variant="ghost"
              disabled={page >= data.totalPages}
              onClick={() => setPage(page + 1)}
            >
              Next
            </Button>
          </Pager>
        </>
      )}
    </PageContainer>
  );
}
