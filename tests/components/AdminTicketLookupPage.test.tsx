import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminCompetitionView, TicketHistoryEntry } from '../../contract/admin';
import AdminTicketLookupPage from '../../web/pages/admin/AdminTicketLookupPage';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

const competition = { id: 5, title: 'Hot Tub', status: 'active' } as AdminCompetitionView;

const history: TicketHistoryEntry[] = [
  { event: 'held', at: '2026-11-20T10:00:00.000Z', orderId: null, userId: null, note: null },
  {
    event: 'released',
    at: '2026-11-20T10:05:00.000Z',
    orderId: null,
    userId: null,
    note: 'removed from cart',
  },
];

describe('AdminTicketLookupPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows a free number's earlier history from the not-found answer", async () => {
    stubApi((_method, path) => {
      if (path === '/api/admin/competitions') return jsonResponse(200, [competition]);
      if (path === '/api/admin/tickets/lookup?competitionId=5&number=8')
        return jsonResponse(404, {
          message: 'Ticket not found',
          code: 'ticket_not_found',
          details: { history },
        });
      return undefined;
    });
    renderWithTheme(<AdminTicketLookupPage />);

    await screen.findByRole('option', { name: 'Hot Tub' });
    fireEvent.change(screen.getByLabelText('Competition'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Ticket number'), { target: { value: '8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));

    const card = await screen.findByTestId('ticket-not-found');
    expect(within(card).getByRole('heading', { name: 'Ticket not found' })).toBeTruthy();
    const rows = within(within(card).getByRole('list', { name: 'Ticket history' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Held in a cart'),
      expect.stringContaining('Released'),
    ]);
    expect(rows[1]?.textContent).toContain('removed from cart');
  });
});
