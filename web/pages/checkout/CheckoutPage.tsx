import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link, useLocation, useSearch } from 'wouter';
import { CheckoutAuthDialogs, type CheckoutAuthStep } from '../../components/checkout/CheckoutAuthDialogs';
import { Button, ButtonLink } from '../../components/ui/Button';
import { CenteredMessage, PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { useCheckout } from '../../stores/checkout';
import { useSiteName } from '../../stores/site';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  justify-content: center;
`;

/**
 * /checkout (docs/product.md#checkout): checking, then auth_required for a guest, or
 * processing: a signed-in customer goes to /cart, which opens the payment dialog. ?canceled shows
 * the cancelled-payment message instead.
 */
export default function CheckoutPage() {
  const siteName = useSiteName();
  const search = useSearch();
  const [, navigate] = useLocation();
  const user = useAuth((s) => s.user);
  const [checked, setChecked] = useState(false);
  const [step, setStep] = useState<CheckoutAuthStep>(null);
  const canceled = new URLSearchParams(search).has('canceled');

  useEffect(() => {
    document.title = `Checkout | ${siteName}`;
  }, [siteName]);

  // The session is checked with the server, not taken from the stored copy.
  useEffect(() => {
    if (canceled) return;
    let current = true;
    void useAuth
      .getState()
      .refresh()
      .then(() => {
        if (current) setChecked(true);
      });
    return () => {
      current = false;
    };
  }, [canceled]);

  const processing = checked && !canceled && user !== null;
  useEffect(() => {
    if (!processing) return;
    useCheckout.getState().setResumeAfterAuth(true);
    navigate('/cart', { replace: true });
  }, [processing, navigate]);

  if (canceled) {
    return (
      <PageContainer>
        <CenteredMessage role="alert">
          <h1>Payment Canceled</h1>
          <p>Order canceled. If you need help, please contact our support team.</p>
          <Link href="/cart" asChild>
            <ButtonLink>Return to Cart</ButtonLink>
          </Link>
        </CenteredMessage>
      </PageContainer>
    );
  }
  if (!checked || processing) return <Spinner label="Checking your account" />;
  return (
    <PageContainer>
      <CenteredMessage>
        <h1>Authentication Required</h1>
        <p>Please log in or create an account to complete your purchase. Your cart will be kept.</p>
        <Actions>
          <Button type="button" onClick={() => setStep('register')}>
            Create Account & Checkout
          </Button>
          <Button type="button" $variant="secondary" onClick={() => setStep('login')}>
            Log In
          </Button>
        </Actions>
        <Link href="/cart">Return to Cart</Link>
      </CenteredMessage>
      {/* Once signed in, `processing` above moves on to the cart and its payment dialog. */}
      <CheckoutAuthDialogs step={step} onStep={setStep} />
    </PageContainer>
  );
}
