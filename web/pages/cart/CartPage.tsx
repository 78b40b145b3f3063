import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { savingLabel } from '../../../contract/bundles';
import { CartLine } from '../../components/cart/CartLine';
import { OrderSummary } from '../../components/cart/OrderSummary';
import { ReleasedHolds } from '../../components/cart/ReleasedHolds';
import { CheckoutAuthDialogs } from '../../components/checkout/CheckoutAuthDialogs';
import { useCheckoutFlow } from '../../components/checkout/useCheckoutFlow';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { cartPricing, useCart } from '../../stores/cart';
import { useReleasedHolds } from '../../stores/releasedHolds';
import { useSiteName } from '../../stores/site';
import { media } from '../../theme/theme';

const Layout = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
  ${media.lg} { grid-template-columns: 1fr 320px; align-items: start; }
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  thead { display: none; }
  tbody { display: block; }
  ${media.md} {
    thead { display: table-header-group; }
    tbody { display: table-row-group; }
    th {
      text-align: left;
      padding: ${({ theme }) => theme.space.sm};
      font-size: ${({ theme }) => theme.fontSizes.sm};
      color: ${({ theme }) => theme.colors.textMuted};
      border-bottom: 2px solid ${({ theme }) => theme.colors.border};
    }
  }
`;

function EmptyCart() {
  // Emptied by expiry: the notice above says what went and why, not 'you haven't added any'.
  const released = useReleasedHolds((s) => s.holds.length > 0 || s.report.length > 0);
  return (
    <CenteredMessage>
      <h1>Your cart is empty</h1>
      {!released && <p>Looks like you haven't added any competitions to your cart yet.</p>}
      <Link href="/competitions" asChild>
        <ButtonLink>Browse Competitions</ButtonLink>
      </Link>
    </CenteredMessage>
  );
}

/**
 * /cart: the held tickets with their live reservation timers, the order summary, and the way to
 * payment (which carries on here after signing in for checkout).
 */
export default function CartPage() {
  const siteName = useSiteName();
  const authStatus = useAuth((s) => s.status);
  const items = useCart((s) => s.items);
  const cartStatus = useCart((s) => s.status);
  const flow = useCheckoutFlow();
  const pricing = cartPricing(items);
  // A competition's bundle savings are said once, on its first line.
  const firstLineOf = new Map<number, number>();
  for (const i of items) if (!firstLineOf.has(i.competitionId)) firstLineOf.set(i.competitionId, i.id);

  useEffect(() => {
    document.title = `Your Cart | ${siteName}`;
  }, [siteName]);

  const authDialogs = (
    <CheckoutAuthDialogs
      step={flow.authStep}
      onStep={flow.setAuthStep}
      onAuthenticated={flow.onAuthenticated}
    />
  );
  if (authStatus === 'loading' || (cartStatus === 'loading' && items.length === 0)) {
    return <Spinner label="Loading your cart" />;
  }
  if (items.length === 0) {
    return (
      <PageContainer>
        <ReleasedHolds />
        <EmptyCart />
        {authDialogs}
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <PageTitle>Your Cart</PageTitle>
      <ReleasedHolds />
      <Layout>
        <Card>
          <Table>
            <thead>
              <tr>
                <th scope="col">Competition</th>
                <th scope="col">Price</th>
                <th scope="col">Tickets</th>
                <th scope="col">Total</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <CartLine
                  key={item.id}
                  item={item}
                  linePence={pricing.linePence.get(item.id)}
                  savings={
                    firstLineOf.get(item.competitionId) === item.id
                      ? (pricing.byCompetition.get(item.competitionId)?.uses.map(savingLabel) ?? [])
                      : []
                  }
                />
              ))}
            </tbody>
          </Table>
        </Card>
        <OrderSummary items={items} onProceed={flow.proceed} />
      </Layout>
      {authDialogs}
    </PageContainer>
  );
}
