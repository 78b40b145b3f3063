import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequireAdmin } from '../../web/components/admin/RequireAdmin';
import { SignInForm } from '../../web/components/auth/SignInForm';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

const admin = publicUser({
  id: 9,
  username: 'morwenna',
  email: 'morwenna@example.co.uk',
  firstName: 'Morwenna',
  role: 'admin',
  twoFactorSetupRequired: true,
});

describe('two-factor sign-in screens', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuth.setState({ user: null, status: 'loading', twoFactorStep: false });
  });

  it('asks for the code after the password, shows a wrong code, and finishes the same sign-in with a right one', async () => {
    const signedIn = { ...admin, twoFactorEnabled: true, twoFactorSetupRequired: false };
    const sent: Array<[string, string]> = [];
    stubApi((method, path) => {
      sent.push([method, path]);
      if (path === '/api/login') return jsonResponse(200, { twoFactorRequired: true });
      if (path === '/api/login/2fa' && sent.filter(([, p]) => p === path).length === 1)
        return jsonResponse(400, { message: 'That code is not correct.', code: 'bad_request' });
      if (path === '/api/login/2fa') return jsonResponse(200, signedIn);
      return undefined;
    });
    const onSubmit = vi.fn(async ({ username, password }: { username: string; password: string }) => {
      await useAuth.getState().login(username, password);
    });
    renderWithTheme(<SignInForm onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'morwenna' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    const code = await screen.findByLabelText('Authentication code');
    expect(useAuth.getState().user).toBeNull();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not correct.');
    expect(useAuth.getState().user).toBeNull();

    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(useAuth.getState().user).toEqual(signedIn));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
  });

  it('goes back to the password form without an error', async () => {
    stubApi((_m, path) =>
      path === '/api/login' ? jsonResponse(200, { twoFactorRequired: true }) : undefined,
    );
    renderWithTheme(
      <SignInForm
        onSubmit={async ({ username, password }) => {
          await useAuth.getState().login(username, password);
        }}
      />,
    );
    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'morwenna' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows an admin who owes the setup only the setup, asks for the password, and keeps the recovery codes up until saved', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `AAAAA-BBBB${String.fromCharCode(65 + i)}`);
    let enableCalls = 0;
    const fetchMock = stubApi((method, path) => {
      if (path === '/api/account/2fa/setup')
        return jsonResponse(200, {
          secret: 'JBSWY3DPEHPK3PXP',
          otpauthUrl: 'otpauth://totp/x',
          qrSvg: '<svg/>',
        });
      if (path === '/api/account/2fa/enable' && ++enableCalls === 1)
        return jsonResponse(400, { message: 'Your password is not correct.', code: 'bad_request' });
      if (path === '/api/account/2fa/enable') {
        // The server's session:ended push makes the app re-read the user meanwhile.
        useAuth.setState({ user: { ...admin, twoFactorEnabled: true, twoFactorSetupRequired: false } });
        return jsonResponse(200, { recoveryCodes: codes });
      }
      if (method === 'GET' && path === '/api/session')
        return jsonResponse(200, {
          user: { ...admin, twoFactorEnabled: true, twoFactorSetupRequired: false },
        });
      return undefined;
    });
    useAuth.setState({ user: admin, status: 'ready' });
    renderWithTheme(
      <RequireAdmin>
        <p>Back office</p>
      </RequireAdmin>,
    );
    expect(screen.getByRole('heading', { name: 'Two-factor sign-in is required for admins' })).toBeTruthy();
    expect(screen.queryByText('Back office')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(screen.getByTestId('two-factor-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
    fireEvent.change(screen.getByLabelText('Code from your app'), { target: { value: '123456' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'not-it' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    // A wrong password is shown as the turning-off form shows it; nothing is turned on.
    expect((await screen.findByRole('alert')).textContent).toBe('Your password is not correct.');
    expect(screen.queryByTestId('recovery-codes')).toBeNull();

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    const list = await screen.findByTestId('recovery-codes');
    expect(list.querySelectorAll('li')).toHaveLength(10);
    const sent = fetchMock.mock.calls.filter(([path]) => path === '/api/account/2fa/enable');
    expect(sent.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { password: 'not-it', code: '123456' },
      { password: 'secret123', code: '123456' },
    ]);
    expect(screen.queryByText('Back office')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I have saved my recovery codes' }));
    expect(await screen.findByText('Back office')).toBeTruthy();
  });
});
