import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpendingLimits, TakeABreak } from '../../web/components/account/PlayerProtection';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

describe('My Profile > Spending limits and Take a break', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the limit, what was spent and a pending raise; sends pence; shows the server refusal', async () => {
    const puts: unknown[] = [];
    stubApi((method, path) => {
      if (path !== '/api/account/limits') return undefined;
      if (method === 'GET') {
        return jsonResponse(200, {
          monthlySpendLimitPence: 2000,
          pending: { monthlySpendLimitPence: 5000, effectiveAt: '2026-11-24T18:00:00.000Z' },
          spentThisMonthPence: 1250,
        });
      }
      return undefined;
    });
    renderWithTheme(<SpendingLimits />);
    await waitFor(() =>
      expect(screen.getByTestId('spend-limit').textContent).toBe(
        'Your monthly spending limit is £20. You have spent £12.50 this month.',
      ),
    );
    expect(screen.getByTestId('pending-limit').textContent).toContain(
      'Your new limit of £50 applies from Tuesday 24 November 2026 at 18:00',
    );

    stubApi((method, path) => {
      if (method === 'PUT' && path === '/api/account/limits') {
        puts.push(path);
        return jsonResponse(400, { message: 'The limit can be at most £100,000', code: 'validation_failed' });
      }
      return undefined;
    });
    fireEvent.change(screen.getByLabelText('Monthly limit (£)'), { target: { value: '12.34' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('The limit can be at most £100,000'),
    );
    expect(puts).toHaveLength(1);
  });

  it('asks before starting a break, then shows when it ends', async () => {
    let excluded = false;
    const fetchMock = stubApi((method, path) => {
      if (path !== '/api/account/self-exclusion') return undefined;
      if (method === 'POST') {
        excluded = true;
        return jsonResponse(200, { selfExcludedUntil: '2026-11-30T18:00:00.000Z' });
      }
      return jsonResponse(200, { selfExcludedUntil: excluded ? '2026-11-30T18:00:00.000Z' : null });
    });
    renderWithTheme(<TakeABreak />);
    const select = (await screen.findByLabelText('Take a break for')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: '7d' } });
    fireEvent.click(screen.getByRole('button', { name: 'Take a break' }));
    expect(screen.getByText(/Start a break of 7 days\?/)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, start my break' }));
    await waitFor(() =>
      expect(screen.getByTestId('break-until').textContent).toContain(
        "You're taking a break until 30 November 2026. You can't enter until then.",
      ),
    );
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ period: '7d' });
  });
});
