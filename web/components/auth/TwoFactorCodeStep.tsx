import { useState } from 'react';
import { TwoFactorCodeSchema } from '../../../contract/auth';
import { useAuth } from '../../stores/auth';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

/**
 * The second step of signing in to an account with two-factor sign-in: the code from the
 * authenticator app, or one of the recovery codes. 'Back' returns to the password form.
 */
export function TwoFactorCodeStep({ idPrefix }: { idPrefix: string }) {
  const [code, setCode] = useState('');
  const { submit, errors, formError, busy } = useValidatedSubmit(
    TwoFactorCodeSchema,
    { code },
    (input) => useAuth.getState().submitTwoFactorCode(input.code),
    'The code could not be checked',
  );
  return (
    <Form onSubmit={submit} noValidate aria-labelledby={`${idPrefix}-2fa-title`}>
      <h2 id={`${idPrefix}-2fa-title`} style={{ margin: 0, fontSize: '1.1rem' }}>
        Two-factor sign-in
      </h2>
      <p style={{ margin: 0 }}>
        Enter the 6-digit code from your authenticator app, or one of your recovery codes.
      </p>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id={`${idPrefix}-2fa-code`}
        label="Authentication code"
        autoComplete="one-time-code"
        autoFocus
        value={code}
        error={errors.code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Checking...' : 'Verify'}
      </Button>
      <Button type="button" $variant="ghost" onClick={() => useAuth.getState().cancelTwoFactor()}>
        Back
      </Button>
    </Form>
  );
}
