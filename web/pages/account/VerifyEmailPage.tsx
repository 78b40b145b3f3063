import { useEffect, useRef, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { VERIFY_LINK_INVALID, type VerifyEmailView } from '../../../contract/account';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { formatPounds } from '../../../contract/money';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { ErrorBox } from '../../components/ui/Form';
import { Card, PageContainer, PageTitle } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';

type State =
  | { status: 'working' }
  | { status: 'done'; answer: VerifyEmailView }
  | { status: 'failed'; message: string };

/** /verify-email?token=…: confirms the address as soon as the link is opened. */
export default function VerifyEmailPage() {
  const siteName = useSiteName();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [state, setState] = useState<State>({ status: 'working' });
  const user = useAuth((s) => s.user);
  const sent = useRef(false);

  useEffect(() => {
    document.title = `Confirm your e-mail address | ${siteName}`;
  }, [siteName]);
  useEffect(() => {
    // Once: the link works only once, and React may run an effect twice in development.
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setState({ status: 'failed', message: VERIFY_LINK_INVALID });
      return;
    }
    call<typeof ACCOUNT_ROUTES.verifyEmail>(
      { method: 'POST', path: '/api/verify-email' },
      { body: { token } },
    )
      .then((answer) => {
        setState({ status: 'done', answer });
        void useAuth.getState().refresh();
      })
      .catch((err) => setState({ status: 'failed', message: messageOf(err, VERIFY_LINK_INVALID) }));
  }, [token]);

  return (
    <PageContainer>
      <PageTitle>Confirm your e-mail address</PageTitle>
      <Card>
        {state.status === 'working' && <Spinner label="Confirming your e-mail address" />}
        {state.status === 'done' && (
          <div role="status">
            <p>{state.answer.message}</p>
            {state.answer.welcomeCredit > 0 && (
              <p>Your welcome credit of {formatPounds(state.answer.welcomeCredit)} is in your account.</p>
            )}
            <Link href="/competitions">See the competitions</Link>
          </div>
        )}
        {state.status === 'failed' && (
          <>
            <ErrorBox role="alert">{state.message}</ErrorBox>
            <p>
              {user
                ? 'Links work once and for 24 hours. Use the button at the top of the page to have a new one sent.'
                : 'Links work once and for 24 hours. Sign in to have a new one sent.'}
            </p>
          </>
        )}
      </Card>
    </PageContainer>
  );
}
