import { useEffect } from 'react';
import { Link, useParams, useSearch } from 'wouter';
import { parseOrderNumber } from '../../../contract/checkout';
import { ButtonLink } from '../../components/ui/Button';
import { CenteredMessage, PageContainer } from '../../components/ui/Page';
import { useSiteName } from '../../stores/site';
import { OrderConfirmation } from './OrderConfirmationPage';

/** The order a return URL names: `?orderId=1623` or `?orderRef=ORD-0000001623`. */
function orderIdOf(search: string): string | null {
  const query = new URLSearchParams(search);
  const id = query.get('orderId');
  if (id && /^[1-9]\d{0,9}$/.test(id)) return id;
  const fromRef = parseOrderNumber(query.get('orderRef') ?? '');
  return fromRef === null ? null : String(fromRef);
}

/** A return URL that names no order of this site: nothing in it is taken as a payment result. */
function UnknownPayment() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Payment | ${siteName}`;
  }, [siteName]);
  return (
    <PageContainer>
      <CenteredMessage>
        <h1>Order Not Found</h1>
        <p>
          This link does not name one of your orders. Your orders and whether each one was paid are in My
          Account.
        </p>
        <Link href="/profile" asChild>
          <ButtonLink>View My Orders</ButtonLink>
        </Link>
      </CenteredMessage>
    </PageContainer>
  );
}

/**
 * /payment-success/:orderId and /payment-success?orderId=… (docs/product.md#orders): the order's
 * real state, read from the server for its owner only, exactly as /confirmation/:orderId. The
 * address bar is never trusted: a return without an order of this site shows no payment result.
 */
export default function PaymentSuccessPage() {
  const params = useParams<{ orderId?: string }>();
  const search = useSearch();
  const orderId = params.orderId ?? orderIdOf(search);
  if (orderId) return <OrderConfirmation key={orderId} orderId={orderId} />;
  return <UnknownPayment />;
}
