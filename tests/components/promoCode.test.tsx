import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OrderSummary } from '../../web/components/cart/OrderSummary';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

const pat = publicUser();

describe('promo code box at checkout', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuth.setState({ user: null, status: 'loading' });
  });

  it('redeems a code and offers the new credit on this order; a refused code shows why', async () => {
    let credit = 0;
    const sent: unknown[] = [];
    stubApi((method, path) => {
      if (path === '/api/user/credit') return jsonResponse(200, { credit });
      if (method === 'GET' && path === '/api/session')
        return jsonResponse(200, { user: { ...pat, siteCredit: credit } });
      if (path === '/api/account/promo-code') {
        sent.push(path);
        if (sent.length === 1)
          return jsonResponse(400, { message: 'That promo code has expired.', code: 'bad_request' });
        credit = 5;
        return jsonResponse(200, { amount: 5, credit: 5, description: 'Promo code WINTER-5: Winter' });
      }
      return undefined;
    });
    useAuth.setState({ user: pat, status: 'ready' });
    renderWithTheme(<OrderSummary items={[]} onProceed={() => undefined} />);
    expect(screen.queryByLabelText(/Use site credit/)).toBeNull();

    fireEvent.change(screen.getByLabelText('Have a promo code?'), { target: { value: 'old-code' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That promo code has expired.');

    fireEvent.change(screen.getByLabelText('Have a promo code?'), { target: { value: 'winter-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect(await screen.findByLabelText('Use site credit (£5.00 available)')).toBeTruthy();
    expect((screen.getByLabelText('Have a promo code?') as HTMLInputElement).value).toBe('');
  });

  it('during a break says so calmly, worded from the break end in London time', async () => {
    stubApi((method, path) => {
      if (path === '/api/user/credit') return jsonResponse(200, { credit: 0 });
      if (method === 'GET' && path === '/api/session') return jsonResponse(200, { user: pat });
      if (path === '/api/account/promo-code')
        return jsonResponse(403, {
          message: 'Refused',
          code: 'self_excluded',
          details: { selfExcludedUntil: '2031-05-27T23:30:00.000Z' },
        });
      return undefined;
    });
    useAuth.setState({ user: pat, status: 'ready' });
    renderWithTheme(<OrderSummary items={[]} onProceed={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Have a promo code?'), { target: { value: 'winter-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply code' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "You're taking a break until 28 May 2031. You can't enter until then.",
    );
  });

  it('is not offered to a visitor who is not signed in', () => {
    stubApi(() => undefined);
    useAuth.setState({ user: null, status: 'ready' });
    renderWithTheme(<OrderSummary items={[]} onProceed={() => undefined} />);
    expect(screen.queryByLabelText('Have a promo code?')).toBeNull();
  });
});
