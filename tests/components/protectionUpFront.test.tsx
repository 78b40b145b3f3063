import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartItemView } from '../../contract/cart';
import { OrderSummary } from '../../web/components/cart/OrderSummary';
import { useAuth } from '../../web/stores/auth';
import { useCheckout } from '../../web/stores/checkout';
import { useToast } from '../../web/stores/toast';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

// Issue 39 §7: the cart shows a break or the spending limit first (one banner, checkout
// disabled); a refusal that still reaches checkout is said once, in that banner: no payment dialog
// with a useless Retry, no toast, no second 'Checkout Error' box.

const OVER = 'This would take you over your monthly spending limit of £5 (£1 left this month).';

const item: CartItemView = {
  id: 1,
  sessionId: 'guest',
  competitionId: 1,
  quantity: 2,
  selectedNumbers: [],
  heldNumbers: [1, 2],
  kept: false,
  reservedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  createdAt: new Date().toISOString(),
  competition: { id: 1, title: 'Hamper', image: null, ticketPrice: 1.99, endDate: new Date().toISOString() },
};

describe('protection shown up front in the cart', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useCheckout.setState({ phase: 'closed', refusal: null, cartError: null, error: null });
    useToast.getState().dismiss();
  });

  it('over the limit: one banner saying until when, and Proceed to Checkout disabled', async () => {
    stubApi((_, path) => {
      if (path === '/api/account/play-state') {
        return jsonResponse(200, {
          onBreakUntil: null,
          spendLimit: { limitPence: 500, leftPence: 100, moreFrom: '2026-12-01T00:00:00.000Z' },
        });
      }
      if (path === '/api/user/credit') return jsonResponse(200, { credit: 0 });
      return undefined;
    });
    useAuth.getState().setUser(publicUser());
    renderWithTheme(<OrderSummary items={[item]} onProceed={() => undefined} />);
    await waitFor(() => expect(screen.getAllByTestId('play-block')).toHaveLength(1));
    expect(screen.getByTestId('play-block').textContent).toContain(
      `${OVER} You can spend more from 1 December 2026 at 00:00 (UK time).`,
    );
    const proceed = screen.getByRole('button', { name: 'Proceed to Checkout' }) as HTMLButtonElement;
    expect(proceed.disabled).toBe(true);
  });

  it('a refusal at checkout closes the dialog and is said once, in the banner, with no toast', async () => {
    let limited = false;
    stubApi((method, path) => {
      if (path === '/api/account/play-state') {
        return jsonResponse(200, {
          onBreakUntil: null,
          spendLimit: limited
            ? { limitPence: 500, leftPence: 100, moreFrom: '2026-12-01T00:00:00.000Z' }
            : null,
        });
      }
      if (path === '/api/user/credit') return jsonResponse(200, { credit: 0 });
      if (method === 'POST' && path === '/api/create-payment-intent') {
        // The limit was set in another tab after this cart was shown.
        limited = true;
        return jsonResponse(400, {
          message: OVER,
          code: 'spend_limit',
          details: { limitPence: 500, leftPence: 100 },
        });
      }
      if (path === '/api/cart') return jsonResponse(200, [item]);
      return undefined;
    });
    useAuth.getState().setUser(publicUser());
    renderWithTheme(
      <OrderSummary items={[item]} onProceed={() => void useCheckout.getState().start(false)} />,
    );
    const proceed = await waitFor(() => {
      const button = screen.getByRole('button', { name: 'Proceed to Checkout' }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      return button;
    });
    await act(async () => proceed.click());
    await waitFor(() =>
      expect(screen.getByTestId('play-block').textContent).toContain('You can spend more from'),
    );
    expect(screen.getAllByTestId('play-block')).toHaveLength(1);
    expect(useCheckout.getState()).toMatchObject({ phase: 'closed', cartError: null, error: null });
    expect(useToast.getState().current).toBeNull();
    expect(screen.queryByTestId('checkout-error')).toBeNull();
    expect((screen.getByRole('button', { name: 'Proceed to Checkout' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
