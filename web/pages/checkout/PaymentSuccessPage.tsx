import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useParams, useSearch } from 'wouter';
import { formatPence } from '../../../contract/money';
import { ButtonLink } from '../../components/ui/Button';
import { Card, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { OrderConfirmation } from './OrderConfirmationPage';

const Wrap = styled(Card)`
  max-width: 560px;
  margin: 0 auto;
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  text-align: center;
  h1 { margin: 0; color: ${({ theme }) => theme.colors.success}; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md}; margin: 0; text-align: left; }
  dt { color: ${({ theme }) => theme.colors.textMuted}; }
  dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  a { flex: 1 1 180px; }
`;

/** The query values of the hosted payment page's redirect; amount arrives in pence. */
function PaymentResult() {
  const siteName = useSiteName();
  const query = new URLSearchParams(useSearch());
  const orderRef = query.get('orderRef');
  const transactionId = query.get('transactionID');
  const pence = Number(query.get('amount'));

  useEffect(() => {
    document.title = `Payment Successful | ${siteName}`;
  }, [siteName]);

  return (
    <Wrap aria-labelledby="payment-result-title">
      <h1 id="payment-result-title">Payment Successful</h1>
      <p>Thank you for your purchase.</p>
      <dl>
        <dt>Order reference</dt>
        <dd>{orderRef ?? 'Not provided'}</dd>
        <dt>Amount</dt>
        <dd data-testid="payment-amount">
          {query.has('amount') && Number.isFinite(pence) ? formatPence(pence) : 'Not provided'}
        </dd>
        <dt>Transaction ID</dt>
        <dd>{transactionId ?? 'Not provided'}</dd>
      </dl>
      <Actions>
        <Link href="/" asChild>
          <ButtonLink $variant="ghost">Continue Shopping</ButtonLink>
        </Link>
        <Link href="/my-tickets" asChild>
          <ButtonLink>View My Tickets</ButtonLink>
        </Link>
      </Actions>
    </Wrap>
  );
}

/**
 * /payment-success (docs/product.md#orders): the hosted payment page's return, showing its query values.
 * /payment-success/:orderId is the order's confirmation, as /confirmation/:orderId.
 */
export default function PaymentSuccessPage() {
  const { orderId } = useParams<{ orderId?: string }>();
  if (orderId) return <OrderConfirmation key={orderId} orderId={orderId} />;
  return (
    <PageContainer>
      <PaymentResult />
    </PageContainer>
  );
}
