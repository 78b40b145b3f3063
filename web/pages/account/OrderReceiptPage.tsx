import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams } from 'wouter';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import { formatLongDate } from '../../../contract/londonTime';
import { formatPounds } from '../../../contract/money';
import type { ReceiptView } from '../../../contract/receipts';
import { useRoute } from '../../api/call';
import { SignedInRecord } from '../../components/account/SignedInRecord';
import { refundSummary } from '../../components/orders/orderStatus';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Card, PageContainer } from '../../components/ui/Page';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';

const Sheet = styled(Card)`
  max-width: 760px;
  margin: 0 auto;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  h1 { margin: 0; }
  address { font-style: normal; white-space: pre-line; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: ${({ theme }) => theme.space.xs}; border-bottom: 1px solid ${({ theme }) => theme.colors.border}; vertical-align: top; }
  td.money, th.money { text-align: right; white-space: nowrap; }
  tfoot th { text-align: right; }
  td { overflow-wrap: anywhere; }
  /* Below sm the four columns do not fit 390 px: each line stacks (title, numbers, then tickets
     and amount side by side) and the column heads are read by screen readers only. */
  @media (max-width: ${({ theme }) => theme.breakpoints.sm - 0.02}px) {
    padding: ${({ theme }) => theme.space.md};
    thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0, 0, 0, 0); }
    tbody tr { display: grid; grid-template-columns: 1fr auto; border-bottom: 1px solid ${({ theme }) => theme.colors.border}; }
    tbody td { border: 0; }
    tbody td:nth-child(-n + 2) { grid-column: 1 / -1; }
    tbody td.numbers::before { content: 'Numbers: '; font-weight: 600; }
    tbody td.money:last-child { text-align: right; }
    tbody td.money { text-align: left; }
  }
  @media print {
    box-shadow: none;
    border: 0;
    .no-print { display: none; }
  }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
`;

function Receipt({ receipt }: { receipt: ReceiptView }) {
  const { order, seller } = receipt;
  const refund = refundSummary(order);
  return (
    <Sheet aria-labelledby="receipt-title">
      <h1 id="receipt-title">Receipt {order.orderNumber}</h1>
      <div data-testid="receipt-seller">
        <strong>{seller.name}</strong>
        {seller.companyNumber && <div>Company number {seller.companyNumber}</div>}
        {seller.address && <address>{seller.address}</address>}
        {seller.phone && <div>Phone {seller.phone}</div>}
        {seller.email && seller.email !== seller.supportEmail && <div className="email">{seller.email}</div>}
        <div className="email">{seller.supportEmail}</div>
      </div>
      <p>
        Paid on {formatLongDate(order.paidAt ?? order.createdAt)} by {order.paymentMethod}
      </p>
      <table>
        <thead>
          <tr>
            <th scope="col">Competition</th>
            <th scope="col">Ticket numbers</th>
            <th scope="col" className="money">
              Tickets
            </th>
            <th scope="col" className="money">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((item) => (
            <tr key={item.id}>
              <td>{item.title}</td>
              <td className="numbers">{item.numbers.join(', ')}</td>
              <td className="money">
                {item.quantity} × {formatPounds(item.ticketPrice)}
                {item.saved ? <small> (multi-buy: you saved {formatPounds(item.saved)})</small> : null}
              </td>
              <td className="money">{formatPounds(item.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {order.creditApplied > 0 && (
            <tr>
              <th colSpan={3}>Paid with site credit</th>
              <td className="money">{formatPounds(order.creditApplied)}</td>
            </tr>
          )}
          {order.creditApplied > 0 && order.total > 0 && (
            <tr>
              <th colSpan={3}>Paid by card</th>
              <td className="money">{formatPounds(order.total)}</td>
            </tr>
          )}
          <tr>
            <th colSpan={3}>Total</th>
            <td className="money" data-testid="receipt-total">
              {formatPounds(order.subtotal)}
            </td>
          </tr>
        </tfoot>
      </table>
      <p>{receipt.vatNote}</p>
      {refund && <p data-testid="receipt-refund">Refund: {refund}</p>}
      <Actions className="no-print">
        <Button type="button" onClick={() => window.print()}>
          Print receipt
        </Button>
        <Link href="/profile" asChild>
          <ButtonLink $variant="ghost">Back to My Account</ButtonLink>
        </Link>
      </Actions>
    </Sheet>
  );
}

/** /orders/:orderId/receipt: a printable receipt for one of the customer's paid orders. */
export default function OrderReceiptPage() {
  const { orderId } = useParams<{ orderId: string }>();
  const siteName = useSiteName();
  const user = useAuth((s) => s.user);
  const receipt = useRoute<typeof ORDER_ROUTES.receipt>(
    { method: 'GET', path: '/api/orders/:id/receipt' },
    user ? { params: { id: orderId ?? '' } } : null,
  );
  const orderNumber = receipt.data?.order.orderNumber;

  useEffect(() => {
    document.title = `${orderNumber ? `Receipt ${orderNumber}` : 'Receipt'} | ${siteName}`;
  }, [orderNumber, siteName]);

  return (
    <PageContainer>
      <SignedInRecord
        loaded={receipt}
        toDo="view your receipt"
        loadingLabel="Loading your receipt"
        unavailable="Receipt not available"
        back={{ href: '/profile', label: 'Back to My Account' }}
      >
        {(data) => <Receipt receipt={data} />}
      </SignedInRecord>
    </PageContainer>
  );
}
