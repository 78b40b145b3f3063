import { type FormEvent, useState } from 'react';
import styled from 'styled-components';
import type { ACCOUNT_ROUTES } from '../../../contract/apiAccounts';
import type { TwoFactorSetupView } from '../../../contract/auth';
import { call, useRoute } from '../../api/call';
import { messageOf } from '../../api/client';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { ErrorBox, Field, Form } from '../ui/Form';

const Qr = styled.img`
  width: 200px;
  height: 200px;
  background: #fff;
  border: 1px solid ${({ theme }) => theme.colors.border};
`;

const Key = styled.code`
  display: inline-block;
  padding: 2px 6px;
  overflow-wrap: anywhere;
  background: ${({ theme }) => theme.colors.muted};
`;

const Codes = styled.ol`
  display: grid;
  grid-template-columns: repeat(2, max-content);
  gap: 4px 32px;
  font-family: ${({ theme }) => theme.fonts.mono};
  font-size: 1.1rem;
`;

/** One small form's state: busy while sending, the server's message when refused. */
function useSend() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (e: FormEvent | undefined, fallback: string, send: () => Promise<void>) => {
    e?.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (err) {
      setError(messageOf(err, fallback));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** Off: start the setup, scan the QR code, confirm with a code; then the recovery codes, once. */
function TurnOn({ onDone }: { onDone: (codes: string[]) => void }) {
  const [setup, setSetup] = useState<TwoFactorSetupView>();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, run } = useSend();

  const start = () =>
    run(undefined, 'Two-factor setup could not start', async () => {
      setSetup(
        await call<typeof ACCOUNT_ROUTES.twoFactorSetup>({ method: 'POST', path: '/api/account/2fa/setup' }),
      );
    });
  const confirm = (e: FormEvent) =>
    run(e, 'That code could not be checked', async () => {
      const { recoveryCodes } = await call<typeof ACCOUNT_ROUTES.twoFactorEnable>(
        { method: 'POST', path: '/api/account/2fa/enable' },
        { body: { password, code } },
      );
      onDone(recoveryCodes);
    });

  if (!setup) {
    return (
      <>
        <p>
          Two-factor sign-in is <strong>off</strong>. Turn it on to ask for a code from an authenticator app
          (Google Authenticator, Microsoft Authenticator, 1Password…) each time you sign in.
        </p>
        {error && <ErrorBox role="alert">{error}</ErrorBox>}
        <Button type="button" onClick={start} disabled={busy}>
          Set up two-factor sign-in
        </Button>
      </>
    );
  }
  return (
    <Form onSubmit={confirm} noValidate aria-label="Confirm two-factor sign-in">
      <p>1. Scan this QR code with your authenticator app.</p>
      <Qr
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
        alt="QR code for your authenticator app"
        width={200}
        height={200}
      />
      <p>
        Can't scan it? Enter this key instead: <Key data-testid="two-factor-secret">{setup.secret}</Key>
      </p>
      <p>2. Enter the 6-digit code the app shows, and your password.</p>
      {error && <ErrorBox role="alert">{error}</ErrorBox>}
      <Field
        id="two-factor-enable-code"
        label="Code from your app"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Field
        id="two-factor-enable-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p>Your other sessions are signed out, and we e-mail you to say two-factor sign-in is on.</p>
      <Button type="submit" disabled={busy}>
        {busy ? 'Checking...' : 'Turn on two-factor sign-in'}
      </Button>
    </Form>
  );
}

/** The recovery codes, shown this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <section aria-label="Recovery codes">
      <p>
        Two-factor sign-in is <strong>on</strong>. Save these recovery codes somewhere safe: each one signs
        you in once if you lose your phone. <strong>They are shown only now.</strong>
      </p>
      <Codes data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Codes>
      <Button type="button" onClick={onDone}>
        I have saved my recovery codes
      </Button>
    </section>
  );
}

/** On: how many recovery codes are left, and turning it off (password and a code). */
function TurnOff() {
  const left = useRoute<typeof ACCOUNT_ROUTES.twoFactor>({ method: 'GET', path: '/api/account/2fa' }, {});
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, run } = useSend();
  const submit = (e: FormEvent) =>
    run(e, 'Two-factor sign-in could not be turned off', async () => {
      await call<typeof ACCOUNT_ROUTES.twoFactorDisable>(
        { method: 'POST', path: '/api/account/2fa/disable' },
        { body: { password, code } },
      );
      toast({ title: 'Two-factor sign-in turned off', variant: 'success' });
      await useAuth.getState().refresh();
    });
  return (
    <>
      <p>
        Two-factor sign-in is <strong>on</strong>.
        {left.data && ` You have ${left.data.recoveryCodesLeft} unused recovery codes.`}
      </p>
      <Form onSubmit={submit} noValidate aria-label="Turn off two-factor sign-in">
        {error && <ErrorBox role="alert">{error}</ErrorBox>}
        <Field
          id="two-factor-disable-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Field
          id="two-factor-disable-code"
          label="Code from your app (or a recovery code)"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Button type="submit" $variant="ghost" disabled={busy}>
          Turn off two-factor sign-in
        </Button>
      </Form>
    </>
  );
}

/** My Account > Security > Two-factor sign-in; also the admin's setup screen (RequireAdmin). */
export function TwoFactorSettings({ onDone }: { onDone?: () => void } = {}) {
  const enabled = useAuth((s) => s.user?.twoFactorEnabled ?? false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  if (recoveryCodes) {
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(undefined);
          // Now the user (and an admin's gate) reads as enabled.
          void useAuth
            .getState()
            .refresh()
            .then(() => onDone?.());
        }}
      />
    );
  }
  return enabled ? <TurnOff /> : <TurnOn onDone={setRecoveryCodes} />;
}
