import { useState } from 'react';
import styled from 'styled-components';
import {
  type AccountMessageView,
  ChangeEmailSchema,
  ChangePasswordFormSchema,
} from '../../../contract/account';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { formatLongDate } from '../../../contract/londonTime';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { NewPasswordFields } from '../../components/auth/NewPasswordFields';
import { TwoFactorSettings } from '../../components/auth/TwoFactorSettings';
import { Button } from '../../components/ui/Button';
import { ErrorBox, Field, Form, fieldBinder } from '../../components/ui/Form';
import { Card } from '../../components/ui/Page';
import { useValidatedSubmit } from '../../components/ui/useValidatedSubmit';

// My Account → Security: password, e-mail address, the signed-in sessions and two-factor sign-in
// (docs/product.md#account-security).

const Done = styled.p`
  margin: 0;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.success};
`;

const SessionList = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space.sm};
    padding: ${({ theme }) => theme.space.sm} 0;
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
  small { display: block; color: ${({ theme }) => theme.colors.textMuted}; overflow-wrap: anywhere; }
`;

function ChangePassword() {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [done, setDone] = useState<string>();
  const { submit, errors, formError, busy } = useValidatedSubmit(
    ChangePasswordFormSchema,
    values,
    async ({ currentPassword, newPassword }) => {
      const answer = await call<typeof ACCOUNT_ROUTES.changePassword>(
        { method: 'POST', path: '/api/account/password' },
        {
          body: {
            currentPassword,
            newPassword,
          },
        },
      );
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      setDone(answer.message);
    },
    'Your password could not be changed. Please try again.',
  );
  const field = fieldBinder(values, setValues, errors);
  return (
    <Form onSubmit={submit} noValidate aria-labelledby="password-title">
      <h3 id="password-title">Change password</h3>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      {done && <Done role="status">{done}</Done>}
      <Field
        id="security-current-password"
        label="Current password"
        type="password"
        autoComplete="current-password"
        {...field('currentPassword')}
      />
      <NewPasswordFields
        ids={{ password: 'security-new-password', confirmation: 'security-confirm-password' }}
        password={field('newPassword')}
        confirmation={field('confirmPassword')}
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving...' : 'Change password'}
      </Button>
    </Form>
  );
}

function ChangeEmail({ email }: { email: string }) {
  const [values, setValues] = useState({ email: '', password: '' });
  const [done, setDone] = useState<string>();
  const { submit, errors, formError, busy } = useValidatedSubmit(
    ChangeEmailSchema,
    values,
    async (input) => {
      const answer = await call<typeof ACCOUNT_ROUTES.changeEmail>(
        { method: 'POST', path: '/api/account/email' },
        { body: input },
      );
      setValues({ email: '', password: '' });
      setDone(answer.message);
    },
    'Your e-mail address could not be changed. Please try again.',
  );
  const field = fieldBinder(values, setValues, errors);
  return (
    <Form onSubmit={submit} noValidate aria-labelledby="email-title">
      <h3 id="email-title">Change e-mail address</h3>
      <p>
        Your address is <span className="email">{email}</span>. We send a link to the new address, and the
        change takes effect when you open it.
      </p>
      {formError && <ErrorBox role="alert">{formError}</ErrorBox>}
      {done && <Done role="status">{done}</Done>}
      <Field
        id="security-new-email"
        label="New e-mail address"
        type="email"
        autoComplete="email"
        {...field('email')}
      />
      <Field
        id="security-email-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending...' : 'Change e-mail address'}
      </Button>
    </Form>
  );
}

function Sessions() {
  const sessions = useRoute<typeof ACCOUNT_ROUTES.sessions>(
    { method: 'GET', path: '/api/account/sessions' },
    {},
  );
  const [note, setNote] = useState<{ text: string; error: boolean }>();
  const act = async (send: () => Promise<AccountMessageView>) => {
    try {
      setNote({ text: (await send()).message, error: false });
    } catch (err) {
      setNote({
        text: messageOf(err, 'That session could not be signed out. Please try again.'),
        error: true,
      });
    }
    sessions.reload();
  };
  const others = sessions.data?.filter((s) => !s.current) ?? [];
  return (
    <section aria-labelledby="sessions-title">
      <h3 id="sessions-title">Where you are signed in</h3>
      {note &&
        (note.error ? <ErrorBox role="alert">{note.text}</ErrorBox> : <Done role="status">{note.text}</Done>)}
      {sessions.error && <ErrorBox>We couldn't load your sessions.</ErrorBox>}
      {sessions.data && (
        <SessionList aria-label="Signed-in sessions">
          {sessions.data.map((s) => (
            <li key={s.id}>
              <span>
                {s.current ? <strong>This device</strong> : 'Another device'}
                <small>{s.label}</small>
                <small>
                  {s.address ?? 'Unknown address'}
                  {s.lastSeenAt ? `, last seen ${formatLongDate(s.lastSeenAt)}` : ''}
                </small>
              </span>
              {!s.current && (
                <Button
                  type="button"
                  $variant="ghost"
                  onClick={() =>
                    act(() =>
                      call<typeof ACCOUNT_ROUTES.endSession>(
                        { method: 'DELETE', path: '/api/account/sessions/:id' },
                        { params: { id: s.id } },
                      ),
                    )
                  }
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </SessionList>
      )}
      {others.length > 0 && (
        <Button
          type="button"
          $variant="secondary"
          onClick={() =>
            act(() =>
              call<typeof ACCOUNT_ROUTES.endOtherSessions>({
                method: 'POST',
                path: '/api/account/sessions/revoke-others',
              }),
            )
          }
        >
          Sign out all other sessions
        </Button>
      )}
    </section>
  );
}

export function SecuritySection({ email }: { email: string }) {
  return (
    <Card aria-labelledby="security-title">
      <h2 id="security-title">Security</h2>
      <ChangePassword />
      <ChangeEmail email={email} />
      <Sessions />
      <section aria-labelledby="two-factor-title">
        <h3 id="two-factor-title">Two-factor sign-in</h3>
        <TwoFactorSettings />
      </section>
    </Card>
  );
}
