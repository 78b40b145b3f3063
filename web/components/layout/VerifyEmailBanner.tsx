import { useState } from 'react';
import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { useAuth } from '../../stores/auth';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.xs} ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.colors.infoBg};
  color: ${({ theme }) => theme.colors.text};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  text-align: center;
  button {
    background: ${({ theme }) => theme.colors.brand};
    color: ${({ theme }) => theme.colors.textInverse};
    border: 0;
    border-radius: ${({ theme }) => theme.radii.pill};
    padding: 2px 12px;
    font-weight: 600;
    cursor: pointer;
  }
`;

/** For a signed-in customer whose address is not confirmed: a reminder with a resend button. */
export function VerifyEmailBanner() {
  const user = useAuth((s) => s.user);
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (user?.role !== 'user' || user.emailVerified !== false) return null;

  const resend = async () => {
    setBusy(true);
    try {
      setNote(
        (
          await call<typeof ACCOUNT_ROUTES.resendVerification>({
            method: 'POST',
            path: '/api/verify-email/resend',
          })
        ).message,
      );
    } catch (err) {
      setNote(messageOf(err, 'We could not send the e-mail. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Bar role="region" aria-label="E-mail confirmation">
      <strong>Please confirm your e-mail address</strong>
      <span>
        using the link we sent to <span className="email">{user.email}</span>.
      </span>
      <button type="button" onClick={resend} disabled={busy}>
        {busy ? 'Sending...' : 'Resend the link'}
      </button>
      {note && <span role="status">{note}</span>}
    </Bar>
  );
}
