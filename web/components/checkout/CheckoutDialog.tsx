import { lazy, Suspense, useEffect } from 'react';
import styled from 'styled-components';
import { DEBIT_CARDS_ONLY } from '../../../contract/cards';
import type { PaymentIntentResponse } from '../../../contract/checkout';
import { formatPounds, poundsToPence } from '../../../contract/money';
import { useCheckout } from '../../stores/checkout';
import { Dialog } from '../ui/Dialog';
import { ErrorBox } from '../ui/Form';
import { Spinner } from '../ui/Spinner';
import { RetryCloseActions } from './PaymentActions';
import { SandboxCardForm } from './SandboxCardForm';
import { useFinishCheckout } from './useFinishCheckout';

// Stripe's code is a chunk of its own, fetched only when Stripe is the provider.
const StripePaymentForm = lazy(() => import('./StripePaymentForm'));

const Centered = styled.div`
  text-align: center;
  p { margin: 0 0 ${({ theme }) => theme.space.md}; }
`;

const Amounts = styled.dl`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 2px ${({ theme }) => theme.space.md};
  margin: ${({ theme }) => theme.space.sm} 0 ${({ theme }) => theme.space.md};
  dd { margin: 0; text-align: right; font-weight: 600; }
  .pay { font-size: ${({ theme }) => theme.fontSizes.lg}; font-weight: 700; }
`;

function OrderAmounts({ intent }: { intent: PaymentIntentResponse }) {
  return (
    <Amounts aria-label="Payment summary">
      <dt>Order</dt>
      <dd>{intent.orderNumber}</dd>
      {intent.creditApplied > 0 && (
        <>
          <dt>Subtotal</dt>
          <dd>{formatPounds(intent.subtotal)}</dd>
          <dt>Site credit</dt>
          <dd>-{formatPounds(intent.creditApplied)}</dd>
        </>
      )}
      <dt className="pay">Amount to pay</dt>
      <dd className="pay" data-testid="payment-amount">
        {formatPounds(intent.amount)}
      </dd>
    </Amounts>
  );
}

const DebitOnly = styled.p`
  border: 1px solid ${({ theme }) => theme.colors.info};
  background: ${({ theme }) => theme.colors.infoBg};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  margin: 0 0 ${({ theme }) => theme.space.md};
  strong { display: block; }
`;

function Ready({
  intent,
  onPaid,
  onClose,
}: {
  intent: PaymentIntentResponse;
  onPaid: (id: number) => void;
  onClose: () => void;
}) {
  const retry = useCheckout((s) => s.retry);
  // Site credit paid the whole order: nothing to take by card.
  useEffect(() => {
    if (intent.status === 'completed') onPaid(intent.orderId);
  }, [intent, onPaid]);
  if (intent.status === 'completed') return <Spinner label="Completing your order" />;

  const stripeReady = intent.provider === 'stripe' && intent.publishableKey;
  if (!intent.clientSecret || (intent.provider !== 'sandbox' && !stripeReady)) {
    return (
      <div role="alert">
        <ErrorBox>Could not initialize payment system.</ErrorBox>
        <p>This may be due to a temporary connectivity issue.</p>
        <RetryCloseActions onRetry={() => void retry()} onClose={onClose} />
      </div>
    );
  }
  return (
    <>
      <OrderAmounts intent={intent} />
      {/* Said before the card form, not after a refusal: instant-win baskets refuse credit cards. */}
      {intent.debitCardsOnly && (
        <DebitOnly data-testid="debit-cards-only">
          <strong>{DEBIT_CARDS_ONLY}</strong>
          Credit cards can't be used for instant win competitions. Pay with a debit card or site credit.
        </DebitOnly>
      )}
      {intent.provider === 'sandbox' ? (
        <SandboxCardForm clientSecret={intent.clientSecret} onPaid={onPaid} onCancel={onClose} />
      ) : (
        <Suspense fallback={<Spinner label="Preparing secure payment form..." />}>
          <StripePaymentForm
            publishableKey={intent.publishableKey!}
            amountPence={poundsToPence(intent.amount)}
            orderId={intent.orderId}
            testMode={intent.testMode}
            onPaid={onPaid}
            onCancel={onClose}
          />
        </Suspense>
      )}
    </>
  );
}

/** The global 'Complete Your Purchase' dialog: loading, error, and the card form when ready. */
export function CheckoutDialog() {
  const phase = useCheckout((s) => s.phase);
  const intent = useCheckout((s) => s.intent);
  const error = useCheckout((s) => s.error);
  const errorAboutCart = useCheckout((s) => s.errorAboutCart);
  const retry = useCheckout((s) => s.retry);
  const close = useCheckout((s) => s.close);
  const finish = useFinishCheckout();

  return (
    <Dialog open={phase !== 'closed'} onClose={close} title="Complete Your Purchase" testId="checkout-dialog">
      {phase === 'loading' && (
        <Centered>
          <Spinner label="Preparing secure payment form" />
          <p>Preparing secure payment form...</p>
        </Centered>
      )}
      {phase === 'error' && (
        <div role="alert">
          <ErrorBox>{error}</ErrorBox>
          {!errorAboutCart && (
            <p>Please check your connection and try again. Your session may have timed out.</p>
          )}
          <RetryCloseActions onRetry={() => void retry()} onClose={close} />
        </div>
      )}
      {phase === 'ready' && intent && <Ready intent={intent} onPaid={finish} onClose={close} />}
    </Dialog>
  );
}
