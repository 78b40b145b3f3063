import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompetitionFormDialog } from '../../web/components/admin/CompetitionFormDialog';
import { hotTub } from './adminCompetition';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

describe('CompetitionFormDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows the server's refusal of a field beside that field", async () => {
    const refusal = 'Total tickets cannot be lower than 73: ticket number 73 is already sold or held.';
    const fetchMock = stubApi((method, path) =>
      method === 'PUT' && path === '/api/admin/competitions/5'
        ? jsonResponse(409, {
            message: refusal,
            code: 'conflict',
            details: { fields: { totalTickets: refusal }, highestTaken: 73 },
          })
        : undefined,
    );
    const onSaved = vi.fn();
    renderWithTheme(
      <CompetitionFormDialog open competition={hotTub} onClose={() => undefined} onSaved={onSaved} />,
    );

    fireEvent.change(screen.getByRole('spinbutton', { name: 'Total Tickets' }), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));

    const total = await screen.findByRole('spinbutton', { name: 'Total Tickets', description: refusal });
    expect(total.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/admin/competitions/5',
      expect.objectContaining({ method: 'PUT' }),
    );
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('sends the main prizes in order, with values and cash alternatives in pence', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'PUT' && path === '/api/admin/competitions/5' ? jsonResponse(200, hotTub) : undefined,
    );
    renderWithTheme(
      <CompetitionFormDialog open competition={hotTub} onClose={() => undefined} onSaved={() => undefined} />,
    );
    expect(screen.getByText("One prize: the competition's title.")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add a prize' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add a prize' }));
    fireEvent.change(screen.getByLabelText('1st prize: title'), { target: { value: 'Hot tub' } });
    fireEvent.change(screen.getByLabelText('1st prize: value (£, optional)'), {
      target: { value: '4999.99' },
    });
    fireEvent.change(screen.getByLabelText('1st prize: cash alternative (£, optional)'), {
      target: { value: '4000' },
    });
    fireEvent.change(screen.getByLabelText('2nd prize: title'), { target: { value: 'Towels' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));

    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/admin/competitions/5',
        expect.objectContaining({ method: 'PUT' }),
      ),
    );
    const put = fetchMock.mock.calls.find(([path]) => path === '/api/admin/competitions/5')!;
    expect(JSON.parse(String((put[1] as RequestInit).body)).prizes).toEqual([
      {
        title: 'Hot tub',
        description: null,
        cashValuePence: 499_999,
        cashAlternativePence: 400_000,
        image: null,
      },
      { title: 'Towels', description: null, cashValuePence: null, cashAlternativePence: null, image: null },
    ]);
  });
});
