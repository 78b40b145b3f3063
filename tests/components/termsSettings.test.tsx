import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EntryTerms } from '../../contract/postal';
import TermsPage from '../../web/pages/static/TermsPage';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// The Terms state the live settings (GET /api/entry-terms), never typed-in values: the postal
// entry address from Site Settings, the hold time and the default per-person cap.

function serve(terms: EntryTerms | null) {
  stubApi((method, path) =>
    method === 'GET' && path === '/api/entry-terms' && terms ? jsonResponse(200, terms) : undefined,
  );
  useAuth.setState({ user: null, status: 'ready' });
}

describe('the Terms read the live settings', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('prints the postal address, hold minutes and default cap from the settings', async () => {
    serve({
      postalAddress: 'Prize Post\nPO Box 77\nBodmin\nPL31 9ZZ',
      holdMinutes: 7,
      defaultMaxTicketsPerUser: 42,
      postalProcessingDays: 5,
    });
    renderWithTheme(<TermsPage />);
    const address = await screen.findByTestId('terms-postal-address');
    expect(address.textContent).toBe('Prize Post\nPO Box 77\nBodmin\nPL31 9ZZ');
    const text = document.body.textContent ?? '';
    expect(text).toContain('held for you for 7 minutes.');
    expect(text).toContain('which is 42 unless that page states another');
    expect(text).toContain('within 5 working days');
    expect(text).not.toContain('10 minutes');
    // Linked from every competition page's free entry panel.
    expect(document.getElementById('free-entry')?.textContent).toContain('Free Postal Entry');
  });

  it('without the settings, states nothing it does not know and says whom to ask for the address', async () => {
    serve(null);
    renderWithTheme(<TermsPage />);
    await screen.findByText(/held for you for the time shown in your cart/);
    expect(screen.queryByTestId('terms-postal-address')).toBeNull();
    expect(document.body.textContent).toContain('We will give the address to anyone who asks');
  });
});
