import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MarketingConsent } from '../../web/components/account/MarketingConsent';
import { PrivacySection } from '../../web/components/account/PrivacySection';
import { useAuth } from '../../web/stores/auth';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

const pat = publicUser({ phoneNumber: '07700 900123', createdAt: '2026-01-01T00:00:00.000Z' });

const show = () =>
  renderWithTheme(
    <PrivacySection>
      <MarketingConsent user={pat} />
    </PrivacySection>,
  );

describe('Privacy > Marketing e-mails', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('saves the choice with PUT /api/account/preferences and keeps the signed-in user in step', async () => {
    const sent: unknown[] = [];
    stubApi((method, path) => {
      if (method === 'PUT' && path === '/api/account/preferences') {
        sent.push(true);
        return jsonResponse(200, {
          marketingEmails: true,
          marketingEmailsUpdatedAt: '2026-11-23T15:00:00.000Z',
        });
      }
      return undefined;
    });
    useAuth.getState().setUser(pat);
    show();
    expect(screen.getByRole('region', { name: 'Privacy' })).toBeTruthy();
    const box = screen.getByLabelText(
      'Send me e-mails about new competitions and offers',
    ) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(box.checked).toBe(true);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Saved on 23 November 2026.'));
    expect(sent).toHaveLength(1);
    expect(useAuth.getState().user?.marketingEmails).toBe(true);
  });

  it('puts the box back and says why when saving fails', async () => {
    stubApi((method) =>
      method === 'PUT'
        ? jsonResponse(400, { message: 'Marketing e-mails must be on (true) or off (false)' })
        : undefined,
    );
    show();
    const box = screen.getByLabelText(
      'Send me e-mails about new competitions and offers',
    ) as HTMLInputElement;
    fireEvent.click(box);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Marketing e-mails must be on (true) or off (false)',
      ),
    );
    expect(box.checked).toBe(false);
  });
});
