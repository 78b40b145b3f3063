import { useState } from 'react';
import { DATE_OF_BIRTH_LABEL } from '../../../contract/age';
import {
  CheckoutRegisterFormSchema,
  MARKETING_CONSENT_LABEL,
  RegisterFormSchema,
} from '../../../contract/auth';
import { londonToday } from '../../../contract/londonTime';
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
  dateOfBirth: '',
  ageConfirmation: false,
  ukResidency: false,
  termsAgreement: false,
  // Marketing consent is never pre-ticked (PECR): off unless the customer ticks it.
  marketingEmails: false,
};

export type RegisterValues = Omit<typeof EMPTY, 'confirmPassword'> & { guestSessionId: null };

/** Eligibility and consent: 18 or over, UK resident, the Terms and Privacy Policy, and marketing. */
function RegisterConsents({
  id,
  values,
  errors,
  set,
}: {
  id: (name: string) => string;
  values: typeof EMPTY;
  errors: Record<string, string | undefined>;
  set: (patch: Partial<typeof EMPTY>) => void;
}) {
  return (
    <>
      <Checkbox
        id={id('age')}
        checked={values.ageConfirmation}
        error={errors.ageConfirmation}
        onChange={(c) => set({ ageConfirmation: c })}
      >
        I confirm that I am 18 years of age or over
      </Checkbox>
      <Checkbox
        id={id('uk')}
        checked={values.ukResidency}
        error={errors.ukResidency}
        onChange={(c) => set({ ukResidency: c })}
      >
        I confirm that I am a UK resident
      </Checkbox>
      <Checkbox
        id={id('terms')}
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
      <Checkbox
        id={id('marketing')}
        checked={values.marketingEmails}
        onChange={(c) => set({ marketingEmails: c })}
      >
        {MARKETING_CONSENT_LABEL} (optional)
      </Checkbox>
    </>
  );
}

/**
 * The registration form with every rule of the spec, checked here and again by the server. The
 * checkout variant requires first and last name (spec section 5) and has its own button.
 */
export function RegisterForm({
  onSubmit,
  variant = 'page',
}: {
  onSubmit: (values: RegisterValues) => Promise<void>;
  variant?: 'page' | 'checkout';
}) {
  const checkout = variant === 'checkout';
  const id = (name: string) => `${checkout ? 'checkout-reg' : 'reg'}-${name}`;
  const [values, setValues] = useState(EMPTY);
  const set = (patch: Partial<typeof EMPTY>) => setValues((current) => ({ ...current, ...patch }));
  const { submit, errors, formError, busy } = useValidatedSubmit(
    checkout ? CheckoutRegisterFormSchema : RegisterFormSchema,
    values,
    async ({ confirmPassword: _confirm, ...rest }) =>
      onSubmit({ ...rest, guestSessionId: null } as RegisterValues),
    'Registration failed',
  );

  return (
    <Form onSubmit={submit} noValidate>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      <Field
        id={id('username')}
        label="Username"
        autoComplete="username"
        value={values.username}
        error={errors.username}
        onChange={(e) => set({ username: e.target.value })}
      />
      <Field
        id={id('email')}
        label="Email"
        type="email"
        autoComplete="email"
        value={values.email}
        error={errors.email}
        onChange={(e) => set({ email: e.target.value })}
      />
      <Field
        id={id('first-name')}
        label={checkout ? 'First name' : 'First name (optional)'}
        autoComplete="given-name"
        value={values.firstName}
        error={errors.firstName}
        onChange={(e) => set({ firstName: e.target.value })}
      />
      <Field
        id={id('last-name')}
        label={checkout ? 'Last name' : 'Last name (optional)'}
        autoComplete="family-name"
        value={values.lastName}
        error={errors.lastName}
        onChange={(e) => set({ lastName: e.target.value })}
      />
      <Field
        id={id('phone')}
        label="Phone number"
        type="tel"
        autoComplete="tel"
        value={values.phoneNumber}
        error={errors.phoneNumber}
        onChange={(e) => set({ phoneNumber: e.target.value })}
      />
      <Field
        id={id('dob')}
        label={DATE_OF_BIRTH_LABEL}
        type="date"
        autoComplete="bday"
        max={londonToday()}
        value={values.dateOfBirth}
        error={errors.dateOfBirth}
        onChange={(e) => set({ dateOfBirth: e.target.value })}
      />
      <Field
        id={id('password')}
        label="Password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        error={errors.password}
        onChange={(e) => set({ password: e.target.value })}
      />
      <Field
        id={id('confirm')}
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        value={values.confirmPassword}
        error={errors.confirmPassword}
        onChange={(e) => set({ confirmPassword: e.target.value })}
      />
      <RegisterConsents id={id} values={values} errors={errors} set={set} />
      <Button type="submit" disabled={busy}>
        {busy ? 'Creating account...' : checkout ? 'Create Account & Go to Cart' : 'Create Account'}
      </Button>
    </Form>
  );
}
