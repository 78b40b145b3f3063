import { useState } from 'react';
import styled from 'styled-components';
import { ForgotPasswordSchema } from '../../../contract/account';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { call } from '../../api/call';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

const Toggle = styled.button`
  background: none;
  border: 0;
  padding: 0;
  color: ${({ theme }) => theme.colors.info};
  font-weight: 600;
  cursor: pointer;
  text-decoration: underline;
  justify-self: start;
`;

const Sent = styled.p`
  margin: 0;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.success};
`;

/**
 * 'Forgot password?' under a sign-in form: the address, then the server's answer, which is the
 * same whether or not an account uses it.
 */
export function ForgotPassword({
  idPrefix = 'forgot',
  startOpen = false,
}: {
  idPrefix?: string;
  startOpen?: boolean;
}) {
  const [open, setOpen] = useState(startOpen);
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string>();
  const { submit, errors, formError, busy } = useValidatedSubmit(
    ForgotPasswordSchema,
    { email },
    async (input) => {
      setSent(
        (
          await call<typeof ACCOUNT_ROUTES.forgotPassword>(
            { method: 'POST', path: '/api/password/forgot' },
            { body: input },
          )
        ).message,
      );
    },
    'We could not send the e-mail. Please try again.',
  );

  if (!open) {
    return (
      <Toggle type="button" onClick={() => setOpen(true)} aria-expanded={false}>
        Forgot password?
      </Toggle>
    );
  }
  return (
    <section aria-labelledby={`${idPrefix}-title`}>
      <h3 id={`${idPrefix}-title`}>Reset your password</h3>
      {sent ? (
        <Sent role="status">{sent}</Sent>
      ) : (
        <Form onSubmit={submit} noValidate>
          <p>
            Enter the e-mail address of your account and we will send you a link to choose a new password.
          </p>
          {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
          <Field
            id={`${idPrefix}-email`}
            label="E-mail address"
            type="email"
            autoComplete="email"
            value={email}
            error={errors.email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </Form>
      )}
    </section>
  );
}
