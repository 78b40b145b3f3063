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

  it('adds, reorders and removes pictures, each needing alt text, and sends the gallery in order', async () => {
    const upload = (n: number) => `/uploads/${String(n).repeat(32)}-800x600.jpg`;
    const fetchMock = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/admin/upload-image')
        return jsonResponse(200, { success: true, imageUrl: upload(3) });
      if (method === 'PUT' && path === '/api/admin/competitions/5') return jsonResponse(200, hotTub);
      return undefined;
    });
    const withGallery = {
      ...hotTub,
      image: upload(1),
      images: [
        { url: upload(1), alt: 'The hot tub, lid open' },
        { url: upload(2), alt: 'The control panel' },
      ],
    };
    renderWithTheme(
      <CompetitionFormDialog
        open
        competition={withGallery}
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
    expect((screen.getByLabelText('Picture 2: alt text') as HTMLInputElement).value).toBe(
      'The control panel',
    );
    const file = new File([new Uint8Array([1, 2, 3])], 'steps.jpg', { type: 'image/jpeg' });
    fireEvent.change(screen.getByLabelText('Add a picture'), { target: { files: [file] } });
    const alt3 = await screen.findByLabelText('Picture 3: alt text');

    // A picture without alt text is refused before anything is sent.
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));
    const refused = await screen.findByRole('textbox', {
      name: 'Picture 3: alt text',
      description: 'Each picture needs alt text: say what it shows',
    });
    expect(refused.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalledWith('/api/admin/competitions/5', expect.anything());

    fireEvent.change(alt3, { target: { value: 'The steps' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move picture 3 up' }));
    // The focus follows the picture it moved.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move picture 2 up' }));
    expect((screen.getByLabelText('Picture 2: alt text') as HTMLInputElement).value).toBe('The steps');
    fireEvent.click(screen.getByRole('button', { name: 'Remove picture 1' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove picture 1' }));
    expect(screen.getByRole('button', { name: 'Move picture 1 up' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Update Competition' }));

    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/admin/competitions/5',
        expect.objectContaining({ method: 'PUT' }),
      ),
    );
    const put = fetchMock.mock.calls.find(([path]) => path === '/api/admin/competitions/5')!;
    const body = JSON.parse(String((put[1] as RequestInit).body));
    expect(body.images).toEqual([
      { url: upload(3), alt: 'The steps' },
      { url: upload(2), alt: 'The control panel' },
    ]);
    expect(body.image).toBe(upload(3));
  });
});
