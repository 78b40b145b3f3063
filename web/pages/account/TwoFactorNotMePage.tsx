import { Link } from 'wouter';
import { NOT_ME_LINK_INVALID, TwoFactorNotMeFormSchema } from '../../../contract/account';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { call } from '../../api/call';
import { NewPasswordFields } from '../../components/auth/NewPasswordFields';
import { useTokenPasswordForm } from '../../components/auth/useTokenPasswordForm';
import { Button } from '../../components/ui/Button';
import { ErrorBox, Form } from '../../components/ui/Form';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';

/**
 * /two-factor-not-me?token=…: the "this wasn't me" link of the e-mail sent when two-factor sign-in
 * is turned on. A new password, twice; then it is off and every session is signed out.
 */
export default function TwoFactorNotMePage() {
  const { submit, errors, formError, busy, token, done, field } = useTokenPasswordForm(
    'Secure your account',
    TwoFactorNotMeFormSchema,
    NOT_ME_LINK_INVALID,
    (body) =>
      call<typeof ACCOUNT_ROUTES.twoFactorNotMe>(
        { method: 'POST', path: '/api/account/2fa/not-me' },
        { body },
      ),
  );

  return (
    <PageContainer>
      <PageTitle>Secure your account</PageTitle>
      <Card>
        {done ? (
          <>
            <p role="status">{done}</p>
            <Link href="/auth">Sign in</Link>
          </>
        ) : !token ? (
          <ErrorBox role="alert">{NOT_ME_LINK_INVALID}</ErrorBox>
        ) : (
          <Form onSubmit={submit} noValidate aria-label="Secure your account">
            <p>
              Someone turned on two-factor sign-in for your account. Choose a new password: two-factor sign-in
              is then turned off and every session, theirs included, is signed out.
            </p>
            {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
            {errors.token && <ErrorBox role="alert">{errors.token}</ErrorBox>}
            <NewPasswordFields
              ids={{ password: 'not-me-password', confirmation: 'not-me-confirm' }}
              password={field('password')}
              confirmation={field('confirmPassword')}
            />
            <Button type="submit" disabled={busy}>
              {busy ? 'Saving...' : 'Set new password and turn off two-factor sign-in'}
            </Button>
          </Form>
        )}
      </Card>
    </PageContainer>
  );
}
