import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartItemView } from '../../contract/cart';
import { OrderSummary } from '../../web/components/cart/OrderSummary';
import { renderWithTheme } from './render';

// Issue 16, point 3: a card payment under 30p cannot start (the server answers 400 card_minimum,
// tests/api/orders/checkout.test.ts); the cart says so before the customer tries to pay.

const MESSAGE = 'Card payments start at £0.30: add a ticket or pay with site credit';

const item = (ticketPrice: number, quantity: number, id = 1): CartItemView => ({
  id,
  sessionId: 'guest',
  competitionId: id,
  quantity,
  selectedNumbers: [],
  heldNumbers: Array.from({ length: quantity }, (_, i) => i + 1),
  reservedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 600_000).toISOString(),
  kept: false,
  createdAt: new Date().toISOString(),
  competition: { id, title: `Prize ${id}`, image: null, ticketPrice, endDate: new Date().toISOString() },
});

describe('the order summary and the card minimum', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a 20p cart shows the message and cannot proceed', () => {
    const onProceed = vi.fn();
    renderWithTheme(<OrderSummary items={[item(0.1, 2)]} onProceed={onProceed} />);
    expect(screen.getByTestId('card-minimum').textContent).toBe(MESSAGE);
    const proceed = screen.getByRole('button', { name: 'Proceed to Checkout' }) as HTMLButtonElement;
    expect(proceed.disabled).toBe(true);
  });

  it('a 30p cart (the minimum) says nothing and can proceed', () => {
    renderWithTheme(<OrderSummary items={[item(0.1, 2), item(0.1, 1, 2)]} onProceed={() => undefined} />);
    expect(screen.queryByText(MESSAGE)).toBeNull();
    const proceed = screen.getByRole('button', { name: 'Proceed to Checkout' }) as HTMLButtonElement;
    expect(proceed.disabled).toBe(false);
  });
});
