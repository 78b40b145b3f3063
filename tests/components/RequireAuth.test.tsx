import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '../../contract/auth';
import { RequireAuth } from '../../web/components/auth/RequireAuth';
import { useAuth } from '../../web/stores/auth';
import { renderWithTheme } from './render';

const customer: PublicUser = {
  id: 7,
  username: 'pat',
  email: 'pat@example.co.uk',
  firstName: 'Pat',
  lastName: 'Penhallow',
  phoneNumber: '07700900123',
  role: 'user',
  siteCredit: 5,
  marketingEmails: false,
  emailVerified: true,
  dateOfBirth: '1990-04-01',
  ageVerifiedAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
  deliveryAddress: null,
};

const page = () =>
  renderWithTheme(
    <RequireAuth>
      <p>Secret page</p>
    </RequireAuth>,
  );

describe('RequireAuth', () => {
  afterEach(() => cleanup());

  it('shows a spinner while the user is loading', () => {
    useAuth.setState({ user: null, status: 'loading' });
    page();
    expect(screen.getByRole('status', { name: 'Checking your account' })).toBeTruthy();
    expect(screen.queryByText('Secret page')).toBeNull();
  });

  it('shows the page to a signed-in user', () => {
    useAuth.setState({ user: customer, status: 'ready' });
    page();
    expect(screen.getByText('Secret page')).toBeTruthy();
  });

  it('asks a visitor to log in, in a Login Required dialog that signs in without leaving the page', async () => {
    const login = vi.fn(async () => customer);
    useAuth.setState({ user: null, status: 'ready', login });
    page();
    expect(screen.getByRole('heading', { name: 'Authentication Required' })).toBeTruthy();
    expect(screen.getByText('Please log in to access this page.')).toBeTruthy();
    expect(screen.queryByText('Secret page')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('heading', { name: 'Login Required' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create New Account' }).getAttribute('href')).toBe(
      '/auth?tab=register',
    );

    // The spec's checks run before anything is sent.
    const dialogLogIn = screen.getAllByRole('button', { name: 'Log In' }).at(-1)!;
    fireEvent.click(dialogLogIn);
    expect(await screen.findByText('Username is required')).toBeTruthy();
    expect(login).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'pat' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.click(dialogLogIn);
    await waitFor(() => expect(login).toHaveBeenCalledWith('pat', 'secret123'));
  });
});
