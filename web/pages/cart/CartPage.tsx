import { useEffect } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { formatPence } from '../../../contract/money';
import { CartLine } from '../../components/cart/CartLine';
import { ButtonLink } from '../../components/ui/Button';
import { Card, CenteredMessage, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { cartTicketCount, cartTotalPence, useCart } from '../../stores/cart';
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

const Summary = styled(Card)`
  h2 { margin-top: 0; color: ${({ theme }) => theme.colors.brand}; }
  dl { display: grid; grid-template-columns: 1fr auto; gap: ${({ theme }) => theme.space.xs}; margin: 0 0 ${({ theme }) => theme.space.md}; }
  dd { margin: 0; text-align: right; font-weight: 600; }
  dt.total, dd.total { font-size: ${({ theme }) => theme.fontSizes.lg}; font-weight: 700; border-top: 1px solid ${({ theme }) => theme.colors.border}; padding-top: ${({ theme }) => theme.space.xs}; }
  a { width: 100%; }
`;

function EmptyCart() {
  return (
    <CenteredMessage>
      <h1>Your cart is empty</h1>
      <p>Looks like you haven't added any competitions to your cart yet.</p>
      <Link href="/competitions" asChild>
        <ButtonLink>Browse Competitions</ButtonLink>
      </Link>
    </CenteredMessage>
  );
}

/** /cart: the held tickets with their live reservation timers, and the order summary. */
export default function CartPage() {
  const siteName = useSiteName();
  const authStatus = useAuth((s) => s.status);
  const items = useCart((s) => s.items);
  const cartStatus = useCart((s) => s.status);

  useEffect(() => {
    document.title = `Your Cart | ${siteName}`;
  }, [siteName]);

  if (authStatus === 'loading' || (cartStatus === 'loading' && items.length === 0)) {
    return <Spinner label="Loading your cart" />;
  }
  if (items.length === 0) {
    return (
      <PageContainer>
        <EmptyCart />
      </PageContainer>
    );
  }

  const subtotal = cartTotalPence(items);
  return (
    <PageContainer>
      <PageTitle>Your Cart</PageTitle>
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
                <CartLine key={item.id} item={item} />
              ))}
            </tbody>
          </Table>
        </Card>
        <Summary aria-labelledby="summary-title">
          <h2 id="summary-title">Order Summary</h2>
          <dl>
            <dt>Subtotal</dt>
            <dd data-testid="cart-subtotal">{formatPence(subtotal)}</dd>
            <dt>Tickets</dt>
            <dd data-testid="cart-tickets">{cartTicketCount(items)}</dd>
            <dt className="total">Total</dt>
            <dd className="total" data-testid="cart-total">
              {formatPence(subtotal)}
            </dd>
          </dl>
          <Link href="/competitions" asChild>
            <ButtonLink $variant="ghost">Continue Shopping</ButtonLink>
          </Link>
        </Summary>
      </Layout>
    </PageContainer>
  );
}
