import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOT_ME_LINK_INVALID } from '../../contract/account';
import TwoFactorNotMePage from '../../web/pages/account/TwoFactorNotMePage';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// The "this wasn't me" page of the e-mail sent when two-factor sign-in is turned on.
describe('the two-factor "this wasn\'t me" page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    window.history.pushState({}, '', '/');
  });

  it('sends the token with a new password, typed twice, and shows the answer', async () => {
    window.history.pushState({}, '', '/two-factor-not-me?token=v1.5.6.7.mac');
    const fetchMock = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/account/2fa/not-me')
        return jsonResponse(200, { message: 'Two-factor sign-in is off and every session is signed out.' });
      if (path === '/api/session') return jsonResponse(200, { user: null });
      return undefined;
    });
    renderWithTheme(<TwoFactorNotMePage />);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'taken-back-1' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'taken-back-2' } });
    const button = screen.getByRole('button', { name: 'Set new password and turn off two-factor sign-in' });
    fireEvent.click(button);
    expect(await screen.findByText('Passwords do not match')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'taken-back-1' } });
    fireEvent.click(button);
    expect((await screen.findByRole('status')).textContent).toContain('Two-factor sign-in is off');
    const sent = fetchMock.mock.calls.filter(([path]) => path === '/api/account/2fa/not-me');
    expect(sent.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { token: 'v1.5.6.7.mac', password: 'taken-back-1' },
    ]);
  });

  it('says the link is invalid when it has no token', () => {
    window.history.pushState({}, '', '/two-factor-not-me');
    stubApi(() => undefined);
    renderWithTheme(<TwoFactorNotMePage />);
    expect(screen.getByRole('alert').textContent).toBe(NOT_ME_LINK_INVALID);
  });
});
