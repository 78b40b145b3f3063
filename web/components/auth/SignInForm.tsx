import { useState } from 'react';
import { SignInFormSchema } from '../../../contract/auth';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

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
  const { submit, errors, formError, busy } = useValidatedSubmit(
    SignInFormSchema,
    values,
    onSubmit,
    'Login failed',
  );

  return (
    <Form onSubmit={submit} noValidate>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id={`${idPrefix}-username`}
        label="Username or email"
        autoComplete="username"
        value={values.username}
        error={errors.username}
        onChange={(e) => setValues({ ...values, username: e.target.value })}
      />
      <Field
        id={`${idPrefix}-password`}
        label="Password"
        type="password"
        autoComplete="current-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => setValues({ ...values, password: e.target.value })}
      />
      {submitLabels.map((label) => (
        <Button key={label} type="submit" disabled={busy}>
          {busy ? 'Signing in...' : label}
        </Button>
      ))}
    </Form>
  );
}
