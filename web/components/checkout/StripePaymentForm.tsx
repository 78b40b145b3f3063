import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
// The /pure entry injects Stripe.js only when loadStripe is called, never on import: the site
// must not reach for the internet unless Stripe is the configured provider.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { type FormEvent, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import type { StripeConfirmResult } from '../../../contract/checkout';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { ErrorBox, Form } from '../ui/Form';
import { Spinner } from '../ui/Spinner';
import { PaymentActions, RetryCloseActions } from './PaymentActions';
import { toastPaymentFailed } from './useFinishCheckout';

const UNEXPECTED = 'An unexpected error occurred.';

const loading = new Map<string, Promise<Stripe | null>>();

/** Stripe.js for a publishable key, loaded once; a failed load is forgotten so Retry tries again. */
function stripeFor(key: string): Promise<Stripe | null> {
  let promise = loading.get(key);
  if (!promise) {
    promise = loadStripe(key).catch(() => null);
    loading.set(key, promise);
    void promise.then((stripe) => {
      if (!stripe) loading.delete(key);
    });
  }
  return promise;
}

const Note = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.textMuted};
`;

interface Props {
  publishableKey: string;
  /** What the card is charged, for the Payment Element (deferred intent). */
  amountPence: number;
  orderId: number;
  testMode: boolean;
  onPaid: (orderId: number) => void;
  onCancel: () => void;
}

function PaymentElementForm({
  orderId,
  testMode,
  onPaid,
  onCancel,
}: Omit<Props, 'publishableKey' | 'amountPence'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string>();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!stripe || !elements) return;
    setProcessing(true);
    setError(undefined);
    try {
      // The element is submitted first (spec): its own validation errors show inline only.
      const submitted = await elements.submit();
      if (submitted.error) {
        setError(submitted.error.message ?? UNEXPECTED);
        return;
      }
      const fail = (message: string) => {
        setError(message);
        toastPaymentFailed(message);
      };
      // The server confirms the payment (after checking the card's funding against the
      // credit-card cap), so the browser only turns the card details into a ConfirmationToken.
      const returnUrl = `${window.location.origin}/confirmation/${orderId}`;
      const made = await stripe.createConfirmationToken({ elements, params: { return_url: returnUrl } });
      if (made.error) {
        fail(made.error.message ?? UNEXPECTED);
        return;
      }
      let result: StripeConfirmResult;
      try {
        result = await call<typeof ORDER_ROUTES.confirmStripePayment>(
          { method: 'POST', path: '/api/payments/stripe/confirm' },
          {
            body: {
              orderId,
              confirmationTokenId: made.confirmationToken.id,
            },
          },
        );
      } catch (err) {
        fail(messageOf(err, UNEXPECTED));
        return;
      }
      if (result.status === 'requires_action' && result.clientSecret) {
        const next = await stripe.handleNextAction({ clientSecret: result.clientSecret });
        if (next.error) {
          fail(next.error.message ?? UNEXPECTED);
          return;
        }
      }
      // 'processing' too: the confirmation page asks the server, which checks with Stripe.
      onPaid(orderId);
    } catch {
      const message = 'An unexpected error occurred. Please try again.';
      setError(message);
      toastPaymentFailed(message);
    } finally {
      setProcessing(false);
    }
  };

  return (
    <Form onSubmit={submit} noValidate aria-label="Card details">
      {testMode && <Note>Stripe test mode: no real payment is taken.</Note>}
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <PaymentElement
        options={{ paymentMethodOrder: ['apple_pay', 'card'], wallets: { googlePay: 'never' } }}
        onReady={() => setReady(true)}
      />
      <PaymentActions onCancel={onCancel} ready={ready && Boolean(stripe)} processing={processing} />
    </Form>
  );
}

/** Stripe's Payment Element for the order's payment intent (loaded only for the Stripe provider). */
export default function StripePaymentForm(props: Props) {
  const [stripe, setStripe] = useState<Stripe | null | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger
  useEffect(() => {
    let current = true;
    setStripe(undefined);
    void stripeFor(props.publishableKey).then((loaded) => {
      if (current) setStripe(loaded);
    });
    return () => {
      current = false;
    };
  }, [props.publishableKey, attempt]);

  if (stripe === undefined) return <Spinner label="Preparing secure payment form..." />;
  if (stripe === null) {
    return (
      <div role="alert">
        <ErrorBox>Could not initialize payment system.</ErrorBox>
        <p>This may be due to a temporary connectivity issue.</p>
        <RetryCloseActions onRetry={() => setAttempt((n) => n + 1)} onClose={props.onCancel} />
      </div>
    );
  }
  return (
    <Elements
      stripe={stripe}
      options={{
        mode: 'payment',
        amount: props.amountPence,
        currency: 'gbp',
        paymentMethodCreation: 'manual',
        allowedPaymentMethodTypes: ['card'],
      }}
    >
      <PaymentElementForm {...props} />
    </Elements>
  );
}
