import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NICKNAME_TAKEN } from '../../contract/publicNames';
import { PublicNameSection } from '../../web/components/account/PublicNameSection';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// My Profile > Public name (docs/product.md#public-names-and-winner-stories).

const initial = { mode: 'initial', nickname: null, shownAs: 'Jo S.', initialName: 'Jo S.' };

describe('My Profile > Public name', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the current choice and saves a nickname with PUT /api/account/public-name', async () => {
    const fetchMock = stubApi((method, path) => {
      if (path !== '/api/account/public-name') return undefined;
      if (method === 'GET') return jsonResponse(200, initial);
      return jsonResponse(200, {
        mode: 'nickname',
        nickname: 'Kernow Kid',
        shownAs: 'Kernow Kid',
        initialName: 'Jo S.',
      });
    });
    renderWithTheme(<PublicNameSection />);
    await waitFor(() => expect(screen.getByTestId('public-name-shown').textContent).toBe('Jo S.'));
    const mine = screen.getByLabelText('My first name and initial (Jo S.)') as HTMLInputElement;
    expect(mine.checked).toBe(true);
    expect(screen.queryByLabelText('Nickname')).toBeNull();

    fireEvent.click(screen.getByLabelText('A nickname'));
    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: '  Kernow   Kid ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save public name' }));
    await waitFor(() => expect(screen.getByTestId('public-name-shown').textContent).toBe('Kernow Kid'));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    // Sent as the server will store it: trimmed, single-spaced.
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ mode: 'nickname', nickname: 'Kernow Kid' });
  });

  it("checks the nickname's rules before sending, and shows the server's refusal", async () => {
    const fetchMock = stubApi((method, path) => {
      if (path !== '/api/account/public-name') return undefined;
      if (method === 'GET') return jsonResponse(200, initial);
      return jsonResponse(409, { message: NICKNAME_TAKEN, code: 'conflict' });
    });
    renderWithTheme(<PublicNameSection />);
    await waitFor(() => expect(screen.getByTestId('public-name-shown')).toBeTruthy());
    fireEvent.click(screen.getByLabelText('A nickname'));
    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Jo S.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save public name' }));
    expect(screen.getByRole('alert').textContent).toContain('A nickname is 3 to 20 letters');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);

    fireEvent.change(screen.getByLabelText('Nickname'), { target: { value: 'Lucky Penny' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save public name' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(NICKNAME_TAKEN));
    expect(screen.getByTestId('public-name-shown').textContent).toBe('Jo S.');
  });
});
