import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import * as v from 'valibot';
import type { ORDER_ROUTES } from '../../../contract/apiOrders';
import { SANDBOX_TEST_MODE_LABEL, SandboxConfirmSchema } from '../../../contract/checkout';
import { call } from '../../api/call';
import { ApiError, errorDetails, FieldErrorsSchema, messageOf } from '../../api/client';
import { ErrorBox, Field, Form } from '../ui/Form';
import { PaymentActions } from './PaymentActions';
import { toastPaymentFailed } from './useFinishCheckout';

const TestMode = styled.div`
  border: 1px dashed ${({ theme }) => theme.colors.info};
  background: ${({ theme }) => theme.colors.muted};
  border-radius: ${({ theme }) => theme.radii.md};
  padding: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  strong { display: block; color: ${({ theme }) => theme.colors.info}; }
  ul { margin: 4px 0; padding-left: 1.2em; }
  code { font-variant-numeric: tabular-nums; }
  p { margin: 0; }
`;

const Pair = styled.div`
  display: grid;
  /* minmax(0, ...) lets both inputs shrink to a phone's width instead of overflowing the dialog. */
  grid-template-columns: repeat(2, minmax(0, 1fr));
  gap: ${({ theme }) => theme.space.sm};
  input { width: 100%; min-width: 0; }
`;

const EXPIRY_INCOMPLETE = "Your card's expiration date is incomplete.";

type CardErrors = { cardNumber?: string; expiry?: string; cvc?: string };

/** Field messages (the contract's or the server's 400 details) on the three inputs. */
function cardErrors(entries: Array<[key: string, message: string]>): CardErrors {
  const found: CardErrors = {};
  for (const [key, message] of entries) {
    const field = key === 'expMonth' || key === 'expYear' ? 'expiry' : key;
    if (field === 'cardNumber' || field === 'expiry' || field === 'cvc') found[field] ??= message;
  }
  return found;
}

/** 'MM/YY' (or MM/YYYY) -> month and year as typed; null when it is not that shape. */
function splitExpiry(expiry: string): { expMonth: string; expYear: string } | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  return m ? { expMonth: m[1]!, expYear: m[2]! } : null;
}

/** Groups the digits in fours as they are typed: '4242424242424242' -> '4242 4242 4242 4242'. */
const groupCardNumber = (value: string) =>
  value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The offline sandbox's card form (no network, no keys): the card goes to our own server, which
 * answers as Stripe's test cards would. It says plainly that no real payment is taken.
 */
export function SandboxCardForm({
  clientSecret,
  onPaid,
  onCancel,
}: {
  clientSecret: string;
  onPaid: (orderId: number) => void;
  onCancel: () => void;
}) {
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const [formError, setFormError] = useState<string>();
  const [processing, setProcessing] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(undefined);
    const expiry = splitExpiry(card.expiry);
    const input = { clientSecret, cardNumber: card.cardNumber, cvc: card.cvc, ...expiry };
    const checked = v.safeParse(SandboxConfirmSchema, input);
    if (!expiry || !checked.success) {
      const issues = checked.success ? [] : checked.issues;
      setErrors(
        cardErrors([
          ...(expiry ? [] : [['expiry', EXPIRY_INCOMPLETE] as [string, string]]),
          ...issues.map((i): [string, string] => [String(i.path?.[0]?.key), i.message]),
        ]),
      );
      return;
    }
    setErrors({});
    setProcessing(true);
    try {
      const result = await call<typeof ORDER_ROUTES.confirmSandboxPayment>(
        { method: 'POST', path: '/api/payments/sandbox/confirm' },
        { body: checked.output },
      );
      onPaid(result.orderId);
    } catch (err) {
      // A typing mistake the server caught (an expiry date in the past): inline, nothing was tried.
      const fields =
        err instanceof ApiError && err.status === 400
          ? errorDetails(err, FieldErrorsSchema)?.fields
          : undefined;
      const inline = cardErrors(Object.entries(fields ?? {}));
      if (Object.keys(inline).length > 0) {
        setErrors(inline);
        return;
      }
      const message = messageOf(err, 'An unexpected error occurred. Please try again.');
      setFormError(message);
      toastPaymentFailed(message);
    } finally {
      setProcessing(false);
    }
  };

  return (
    <Form onSubmit={submit} noValidate aria-label="Card details">
      <TestMode data-testid="sandbox-test-mode">
        <strong>{SANDBOX_TEST_MODE_LABEL}</strong>
        <p>Use one of these test cards, with any future expiry date and any 3-digit CVC:</p>
        <ul>
          <li>
            <code>4242 4242 4242 4242</code>: payment succeeds (a credit card)
          </li>
          <li>
            <code>4000 0566 5566 5556</code>: payment succeeds (a debit card)
          </li>
          <li>
            <code>4000 0000 0000 0002</code>: card declined
          </li>
          <li>
            <code>4000 0000 0000 9995</code>: insufficient funds
          </li>
        </ul>
      </TestMode>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id="card-number"
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={card.cardNumber}
        error={errors.cardNumber}
        onChange={(e) => setCard({ ...card, cardNumber: groupCardNumber(e.target.value) })}
      />
      <Pair>
        <Field
          id="card-expiry"
          label="Expiry (MM/YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/YY"
          maxLength={7}
          value={card.expiry}
          error={errors.expiry}
          onChange={(e) => setCard({ ...card, expiry: e.target.value })}
        />
        <Field
          id="card-cvc"
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="123"
          maxLength={4}
          value={card.cvc}
          error={errors.cvc}
          onChange={(e) => setCard({ ...card, cvc: e.target.value })}
        />
      </Pair>
      <PaymentActions onCancel={onCancel} ready processing={processing} />
    </Form>
  );
}
