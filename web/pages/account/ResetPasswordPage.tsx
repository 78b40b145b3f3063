import { Link } from 'wouter';
import { RESET_LINK_INVALID, ResetPasswordFormSchema } from '../../../contract/account';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { call } from '../../api/call';
import { ForgotPassword } from '../../components/auth/ForgotPassword';
import { NewPasswordFields } from '../../components/auth/NewPasswordFields';
import { useTokenPasswordForm } from '../../components/auth/useTokenPasswordForm';
import { Button } from '../../components/ui/Button';
import { ErrorBox, Form } from '../../components/ui/Form';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';

/** /reset-password?token=…: the link from the reset e-mail; a new password, twice. */
export default function ResetPasswordPage() {
  // Every session of the account has ended, this browser's too if it was signed in.
  const { submit, errors, formError, busy, token, done, field } = useTokenPasswordForm(
    'Choose a new password',
    ResetPasswordFormSchema,
    RESET_LINK_INVALID,
    (body) =>
      call<typeof ACCOUNT_ROUTES.resetPassword>({ method: 'POST', path: '/api/password/reset' }, { body }),
  );

  return (
    <PageContainer>
      <PageTitle>Choose a new password</PageTitle>
      <Card>
        {done ? (
          <>
            <p role="status">{done}</p>
            <Link href="/auth">Sign in</Link>
          </>
        ) : !token ? (
          <>
            <ErrorBox role="alert">{RESET_LINK_INVALID}</ErrorBox>
            <ForgotPassword startOpen idPrefix="reset-forgot" />
          </>
        ) : (
          <Form onSubmit={submit} noValidate>
            {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
            {(errors.token || formError === RESET_LINK_INVALID) && (
              <p>
                Links work once and for 1 hour. <Link href="/auth?forgot=1">Ask for a new link</Link>.
              </p>
            )}
            {errors.token && <ErrorBox role="alert">{errors.token}</ErrorBox>}
            <NewPasswordFields
              ids={{ password: 'reset-password', confirmation: 'reset-confirm' }}
              password={field('password')}
              confirmation={field('confirmPassword')}
            />
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Set new password'}
            </Button>
            <p>
              If signing in then asks for a two-factor code you never set up, contact us: once we have checked
              that the account is yours, we turn two-factor sign-in off.
            </p>
          </Form>
        )}
      </Card>
    </PageContainer>
  );
}
