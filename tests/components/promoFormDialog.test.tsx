import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PromoFormDialog } from '../../web/components/admin/PromoFormDialog';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

describe('PromoFormDialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends the promo code typed, and shows why the server refused it', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'POST' && path === '/api/admin/promos'
        ? jsonResponse(409, { message: 'Another promo already uses that code', code: 'conflict' })
        : undefined,
    );
    const onSaved = vi.fn();
    renderWithTheme(<PromoFormDialog open promo={null} onClose={() => undefined} onSaved={onSaved} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Winter' } });
    fireEvent.change(screen.getByLabelText('Credit Amount (£)'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('Promo Code (optional)'), { target: { value: 'winter-5' } });
    fireEvent.click(screen.getByLabelText(/Apply automatically/));
    fireEvent.click(screen.getByRole('button', { name: 'Create Promo' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Another promo already uses that code');
    const posts = fetchMock.mock.calls.filter(
      ([path, init]) => path === '/api/admin/promos' && init?.method === 'POST',
    );
    expect(posts).toHaveLength(1);
    expect(JSON.parse(String(posts[0]![1]!.body))).toMatchObject({
      name: 'Winter',
      code: 'winter-5',
      autoApply: false,
    });
    expect(onSaved).not.toHaveBeenCalled();
  });
});
