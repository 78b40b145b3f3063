import { useState } from 'react';
import { SignInFormSchema } from '../../../contract/auth';
import { SIGN_IN_NOT_FINISHED, useAuth } from '../../stores/auth';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form, fieldBinder } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';
import { TwoFactorCodeStep } from './TwoFactorCodeStep';

export interface SignInValues {
  username: string;
  password: string;
}

/**
 * Username (or email) and password with the spec's checks; `onSubmit` does the signing in and
 * throws to show its message in the red box. Extra submit buttons (admin login) share one path.
 */
export function SignInForm({
  onSubmit,
  submitLabels = ['Sign In'],
  idPrefix = 'login',
}: {
  onSubmit: (values: SignInValues) => Promise<void>;
  submitLabels?: string[];
  idPrefix?: string;
}) {
  const [values, setValues] = useState<SignInValues>({ username: '', password: '' });
  const codeStep = useAuth((s) => s.twoFactorStep);
  const { submit, errors, formError, busy } = useValidatedSubmit(
    SignInFormSchema,
    values,
    onSubmit,
    'Login failed',
  );
  const field = fieldBinder(values, setValues, errors);

  // Until the code step ends, onSubmit is still waiting on the login it started.
  if (codeStep) return <TwoFactorCodeStep idPrefix={idPrefix} />;
  return (
    <Form onSubmit={submit} noValidate>
      {formError && formError !== SIGN_IN_NOT_FINISHED && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id={`${idPrefix}-username`}
        label="Username or email"
        autoComplete="username"
        {...field('username')}
      />
      <Field
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      {submitLabels.map((label) => (
        <Button key={label} type="submit" disabled={busy}>
          {busy ? 'Signing in...' : label}
        </Button>
      ))}
    </Form>
  );
}
