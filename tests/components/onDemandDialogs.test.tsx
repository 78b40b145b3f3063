import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OnDemandDialogs } from '../../web/App';
import { apiSend } from '../../web/api/client';
import { useAuth } from '../../web/stores/auth';
import { useCheckout } from '../../web/stores/checkout';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

// The app-wide dialogs are separate chunks, fetched the first time they open
// (docs/performance.md#first-load): until then nothing of them is on the page, and the first
// refusal or checkout still opens them.

/** The first open imports the dialog's module (transformed on the fly here): allow for it. */
const LOAD = { timeout: 10_000 };

describe('the dialogs loaded on demand', () => {
  afterEach(() => {
    cleanup();
    useCheckout.getState().close();
    vi.unstubAllGlobals();
  });

  it('opens the date-of-birth prompt on the first date_of_birth_required, though not loaded before', async () => {
    stubApi((method, path) =>
      method === 'POST' && path === '/api/cart'
        ? jsonResponse(403, { message: 'Please give your date of birth.', code: 'date_of_birth_required' })
        : undefined,
    );
    useAuth.getState().setUser(publicUser({ dateOfBirth: null }));
    renderWithTheme(<OnDemandDialogs />);
    expect(screen.queryByTestId('date-of-birth-dialog')).toBeNull();
    expect(screen.queryByLabelText('Date of birth')).toBeNull();

    await expect(apiSend('POST', '/api/cart', { competitionId: 1, quantity: 1 })).rejects.toMatchObject({
      code: 'date_of_birth_required',
    });
    expect(await screen.findByLabelText('Date of birth', {}, LOAD)).toBeTruthy();
  });

  it('opens the checkout dialog when a checkout starts, and shows why it failed', async () => {
    stubApi((method, path) =>
      method === 'POST' && path === '/api/create-payment-intent'
        ? jsonResponse(400, { message: 'Your cart is empty', code: 'bad_request' })
        : undefined,
    );
    renderWithTheme(<OnDemandDialogs />);
    expect(screen.queryByTestId('checkout-dialog')).toBeNull();

    void useCheckout.getState().start(false);
    await screen.findByTestId('checkout-dialog', {}, LOAD);
    await waitFor(() =>
      expect(screen.getByTestId('checkout-dialog').textContent).toContain('Your cart is empty'),
    );
  });
});
