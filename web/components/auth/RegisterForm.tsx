import { useState } from 'react';
import { RegisterFormSchema } from '../../../contract/auth';
import { Button } from '../ui/Button';
import { Checkbox, ErrorBox, Field, Form } from '../ui/Form';
import { useValidatedSubmit } from '../ui/useValidatedSubmit';

const EMPTY = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  firstName: '',
  lastName: '',
  phoneNumber: '',
  ageConfirmation: false,
  ukResidency: false,
  termsAgreement: false,
};

export type RegisterValues = Omit<typeof EMPTY, 'confirmPassword'> & { guestSessionId: null };

/** The registration form with every rule of the spec, checked here and again by the server. */
export function RegisterForm({ onSubmit }: { onSubmit: (values: RegisterValues) => Promise<void> }) {
  const [values, setValues] = useState(EMPTY);
  const set = (patch: Partial<typeof EMPTY>) => setValues((current) => ({ ...current, ...patch }));
  const { submit, errors, formError, busy } = useValidatedSubmit(
    RegisterFormSchema,
    values,
    async ({ confirmPassword: _confirm, ...rest }) =>
      onSubmit({ ...rest, guestSessionId: null } as RegisterValues),
    'Registration failed',
  );

  return (
    <Form onSubmit={submit} noValidate>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id="reg-username"
        label="Username"
        autoComplete="username"
        value={values.username}
        error={errors.username}
        onChange={(e) => set({ username: e.target.value })}
      />
      <Field
        id="reg-email"
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        error={errors.email}
        onChange={(e) => set({ email: e.target.value })}
      />
      <Field
        id="reg-first-name"
        label="First name (optional)"
        autoComplete="given-name"
        value={values.firstName}
        error={errors.firstName}
        onChange={(e) => set({ firstName: e.target.value })}
      />
      <Field
        id="reg-last-name"
        label="Last name (optional)"
        autoComplete="family-name"
        value={values.lastName}
        error={errors.lastName}
        onChange={(e) => set({ lastName: e.target.value })}
      />
      <Field
        id="reg-phone"
        label="Phone number"
        type="tel"
        autoComplete="tel"
        value={values.phoneNumber}
        error={errors.phoneNumber}
        onChange={(e) => set({ phoneNumber: e.target.value })}
      />
      <Field
        id="reg-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => set({ password: e.target.value })}
      />
      <Field
        id="reg-confirm"
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={values.confirmPassword}
        error={errors.confirmPassword}
        onChange={(e) => set({ confirmPassword: e.target.value })}
      />
      <Checkbox
        id="reg-age"
        checked={values.ageConfirmation}
        error={errors.ageConfirmation}
        onChange={(c) => set({ ageConfirmation: c })}
      >
        I confirm that I am 18 years of age or over
      </Checkbox>
      <Checkbox
        id="reg-uk"
        checked={values.ukResidency}
        error={errors.ukResidency}
        onChange={(c) => set({ ukResidency: c })}
      >
        I confirm that I am a UK resident
      </Checkbox>
      <Checkbox
        id="reg-terms"
        checked={values.termsAgreement}
        error={errors.termsAgreement}
        onChange={(c) => set({ termsAgreement: c })}
      >
        I agree to the{' '}
        <a href="/terms" target="_blank" rel="noopener noreferrer">
          Terms and Conditions
        </a>{' '}
        and{' '}
        <a href="/privacy" target="_blank" rel="noopener noreferrer">
          Privacy Policy
        </a>
      </Checkbox>
      <Button type="submit" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </Form>
  );
}
