import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OrderView } from '../../contract/checkout';
import { OrderHistory } from '../../web/components/orders/OrderHistory';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// Issue 39 §6: a checkout replaced by a newer one, or declined, took no money and the customer
// cancelled nothing: it says 'Payment not completed' without the numbers it held for a while.
// 'Cancelled' is kept for a paid order an admin cancelled; the card that paid is named (§5).

const order = (over: Partial<OrderView>): OrderView => ({
  id: 1,
  orderNumber: 'ORD-0000000001',
  userId: 7,
  createdAt: '2026-11-20T10:00:00.000Z',
  paidAt: null,
  status: 'pending',
  subtotal: 2,
  creditApplied: 0,
  total: 2,
  currency: 'gbp',
  paymentProvider: 'sandbox',
  paymentMethod: 'Card',
  card: null,
  notice: null,
  refund: null,
  items: [
    {
      id: 1,
      competitionId: 3,
      title: 'Hamper',
      ticketPrice: 1,
      quantity: 2,
      selectedNumbers: [3, 7],
      numbers: [3, 7],
      lineTotal: 2,
      drawDate: null,
    },
  ],
  ...over,
});

describe('My Profile > Order history statuses', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("says 'Payment not completed' for a replaced or declined checkout, never 'Cancelled'", async () => {
    const paidCard = { brand: 'visa', funding: 'debit', last4: '5556' };
    stubApi((_, path) =>
      path === '/api/orders'
        ? jsonResponse(200, [
            order({ id: 4, orderNumber: 'ORD-0000000004', status: 'cancelled', notice: null }),
            order({
              id: 3,
              orderNumber: 'ORD-0000000003',
              status: 'failed',
              notice: 'Your card was declined.',
            }),
            order({
              id: 2,
              orderNumber: 'ORD-0000000002',
              status: 'cancelled',
              paidAt: '2026-11-20T10:01:00.000Z',
              paymentProvider: 'credit',
              paymentMethod: 'Site Credit',
            }),
            order({
              id: 1,
              status: 'completed',
              paidAt: '2026-11-20T10:01:00.000Z',
              card: paidCard,
              paymentMethod: 'Visa Debit ••5556',
            }),
          ])
        : undefined,
    );
    renderWithTheme(<OrderHistory />);
    const items = await waitFor(() => {
      const found = screen.getAllByTestId('order-history-item');
      expect(found).toHaveLength(4);
      return found;
    });
    const [replaced, declined, cancelled, paid] = items as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    for (const unpaid of [replaced, declined]) {
      expect(within(unpaid).getByText('Payment not completed')).toBeTruthy();
      expect(unpaid.textContent).not.toContain('Cancelled');
      expect(unpaid.textContent).not.toContain('numbers 3, 7');
    }
    expect(within(cancelled).getByText('Cancelled')).toBeTruthy();
    expect(within(paid).getByText('Paid')).toBeTruthy();
    expect(paid.textContent).toContain('Visa Debit ••5556');
    expect(paid.textContent).toContain('numbers 3, 7');
  });
});
