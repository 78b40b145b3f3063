import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerView } from '../../contract/backOffice';
import { ReferralSection } from '../../web/components/account/ReferralSection';
import { CustomerReferrals } from '../../web/components/admin/CustomerPanels';
import { useAuth } from '../../web/stores/auth';
import { forgetReferralCode, keepReferralFromUrl, keptReferralCode } from '../../web/stores/referral';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';

// My Profile > Refer a friend (docs/product.md#referrals): the link, Share (the Web Share API, or
// the link copied), what it has earned; and the ?ref= code kept from landing to registration.

const URL_SHARED = 'https://prizes.example/?ref=ABCD2345';

function answer(view: { referred: number; rewardedPence: number }) {
  return stubApi((method, path) =>
    method === 'GET' && path === '/api/account/referral'
      ? jsonResponse(200, { code: 'ABCD2345', url: URL_SHARED, ...view })
      : undefined,
  );
}

describe('Refer a friend', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    forgetReferralCode();
  });

  it('shows the link and what it has earned, and shares it with the Web Share API', async () => {
    answer({ referred: 3, rewardedPence: 1000 });
    const share = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    renderWithTheme(<ReferralSection />);
    const input = (await screen.findByLabelText('Your referral link')) as HTMLInputElement;
    expect(input.value).toBe(URL_SHARED);
    expect(screen.getByTestId('referral-earned').textContent).toBe(
      '3 people have joined with your link. You have earned £10.00 in site credit.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: URL_SHARED }));
  });

  it('copies the link where the device cannot share, and says nobody has joined yet', async () => {
    answer({ referred: 0, rewardedPence: 0 });
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    renderWithTheme(<ReferralSection />);
    await screen.findByLabelText('Your referral link');
    expect(screen.getByTestId('referral-earned').textContent).toBe('Nobody has joined with your link yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(URL_SHARED));
  });

  it('says so when the link cannot be loaded', async () => {
    stubApi(() => jsonResponse(403, { message: 'Forbidden' }));
    renderWithTheme(<ReferralSection />);
    expect(await screen.findByText("We couldn't load your referral link.")).toBeTruthy();
  });

  it('keeps a landing ?ref= code and sends it with the registration, then forgets it', async () => {
    keepReferralFromUrl('?ref=<bad>');
    expect(keptReferralCode()).toBeNull();
    keepReferralFromUrl('?utm=x&ref=abcd2345');
    expect(keptReferralCode()).toBe('ABCD2345');
    const bodies: unknown[] = [];
    const fetchMock = stubApi((method, path) => {
      if (method === 'POST' && path === '/api/register') {
        return jsonResponse(201, { id: 9, username: 'pat', email: 'pat@example.co.uk' });
      }
      return undefined;
    });
    await useAuth
      .getState()
      .register({ username: 'pat', email: 'pat@example.co.uk' } as never)
      .catch(() => undefined);
    for (const [input, init] of fetchMock.mock.calls) {
      if (input === '/api/register') bodies.push(JSON.parse(String(init?.body)));
    }
    expect(bodies).toEqual([expect.objectContaining({ username: 'pat', referralCode: 'ABCD2345' })]);
    expect(keptReferralCode()).toBeNull();
  });

  it('shows the admin each referral of a customer, with the reward or why there was none', () => {
    const referral = {
      referredUserId: 2,
      orderId: 7,
      createdAt: '2026-11-20T10:00:00.000Z',
      decidedAt: '2026-11-21T10:00:00.000Z',
    };
    const customer = {
      referrals: [
        {
          ...referral,
          id: 2,
          referredUsername: 'kit',
          status: 'refused',
          refusedReason: 'same_card',
          reason: 'Both accounts paid with the same card',
          reward: null,
        },
        {
          ...referral,
          id: 1,
          referredUsername: 'pat',
          status: 'rewarded',
          refusedReason: null,
          reason: null,
          reward: 5,
        },
      ],
    } as unknown as CustomerView;
    renderWithTheme(<CustomerReferrals customer={customer} />);
    const rows = screen.getAllByTestId('referral-row').map((r) => r.textContent);
    expect(rows[0]).toContain('kit');
    expect(rows[0]).toContain('Not rewarded');
    expect(rows[0]).toContain('Both accounts paid with the same card');
    expect(rows[1]).toContain('Rewarded');
    expect(rows[1]).toContain('£5.00');
  });
});
