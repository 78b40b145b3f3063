import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SignUpOffer } from '../../contract/site';
import { PromoBanner } from '../../web/components/layout/PromoBanner';
import HomePage from '../../web/pages/home/HomePage';
import FaqPage from '../../web/pages/static/FaqPage';
import TermsPage from '../../web/pages/static/TermsPage';
import { useAuth } from '../../web/stores/auth';
import { usePromotions } from '../../web/stores/promotions';
import { jsonResponse, stubApi } from './fakeApi';
import { renderWithTheme } from './render';
import { publicUser } from './users';

// 22:59 UTC on 31 July 2027 is 23:59 in London (BST): the offer's end is shown in UK time.
const OFFER: SignUpOffer = { creditAmount: 5, validUntil: '2027-07-31T22:59:00.000Z' };
const SUMMARY = '£5.00 site credit when you open an account and confirm your e-mail';
const ENDS = 'Offer ends 31 July 2027 at 23:59 (UK time).';
const MINIMUM = 'Site credit can be used on baskets of £5.00 or more.';

/** The API answers GET /api/promotions/current with `offer`; the visitor is signed out unless told. */
function serve(offer: SignUpOffer | null, { signedIn = false } = {}) {
  stubApi((method, path) =>
    method === 'GET' && path === '/api/promotions/current'
      ? jsonResponse(200, { signUpOffer: offer })
      : undefined,
  );
  useAuth.setState({ user: signedIn ? publicUser() : null, status: 'ready' });
}

const renderBannerAndHero = () =>
  renderWithTheme(
    <>
      <PromoBanner />
      <HomePage />
    </>,
  );

const promotionsAnswered = () => waitFor(() => expect(usePromotions.getState().status).toBe('done'));

describe('the sign-up offer on screen', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    usePromotions.setState({ signUpOffer: undefined, status: 'idle' });
    useAuth.setState({ user: null, status: 'loading' });
  });

  it('banner: states the live offer, its real end date in UK time and the minimum spend', async () => {
    serve(OFFER);
    renderWithTheme(<PromoBanner />);
    const banner = await screen.findByRole('region', { name: 'New customer offer' });
    expect(banner.textContent).toContain(`New customers: ${SUMMARY}. ${ENDS} ${MINIMUM}`);
    expect(banner.textContent).toContain(
      '£5.00 credit for new accounts. Use it on baskets of £5.00 or more.',
    );
    expect(banner.textContent).not.toMatch(/July!|30th/);
  });

  it('banner: says no end date when the promotion has none', async () => {
    serve({ creditAmount: 2.5, validUntil: null });
    renderWithTheme(<PromoBanner />);
    const banner = await screen.findByRole('region', { name: 'New customer offer' });
    expect(banner.textContent).toContain(
      'New customers: £2.50 site credit when you open an account and confirm your e-mail. Site credit',
    );
    expect(banner.textContent).not.toContain('Offer ends');
  });

  it('banner and hero: nothing at all when no promotion is running', async () => {
    serve(null);
    renderBannerAndHero();
    await promotionsAnswered();
    expect(screen.queryByRole('region', { name: 'New customer offer' })).toBeNull();
    expect(screen.getByTestId('hero').textContent).toBe("1000's OF PRIZES TO BE WONENTER TO WIN");
  });

  it('banner and hero: hidden from a signed-in customer even while an offer runs', async () => {
    serve(OFFER, { signedIn: true });
    renderBannerAndHero();
    await promotionsAnswered();
    expect(screen.queryByRole('region', { name: 'New customer offer' })).toBeNull();
    expect(screen.getByTestId('hero').textContent).not.toContain('site credit');
  });

  it('hero: a headline with no season, and the live offer with its minimum spend for a visitor', async () => {
    serve(OFFER);
    renderWithTheme(<HomePage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe("1000's OF PRIZES TO BE WON");
    await waitFor(() =>
      expect(screen.getByTestId('hero').textContent).toContain(
        `New customers: ${SUMMARY}. ${ENDS} ${MINIMUM}`,
      ),
    );
  });

  it('Terms and FAQs: the welcome offer in its own amount and end date, and none without a promotion', async () => {
    serve(OFFER);
    renderWithTheme(<TermsPage />);
    await screen.findByText(/Our welcome credit offer gives new customers/);
    const terms = document.body.textContent ?? '';
    expect(terms).toContain(`Our welcome credit offer gives new customers ${SUMMARY}.`);
    expect(terms).toContain('The welcome credit offer ends on 31 July 2027 at 23:59 (UK time)');
    expect(terms).toContain(MINIMUM);
    expect(terms).not.toContain('2025');
    cleanup();

    renderWithTheme(<FaqPage />);
    expect(await screen.findByText('How does the welcome credit offer work?')).toBeTruthy();
    cleanup();

    usePromotions.setState({ signUpOffer: undefined, status: 'idle' });
    serve(null);
    renderWithTheme(<TermsPage />);
    await promotionsAnswered();
    const noOffer = document.body.textContent ?? '';
    expect(noOffer).not.toContain('welcome credit');
    expect(noOffer).toContain(MINIMUM);
    cleanup();
    renderWithTheme(<FaqPage />);
    expect(screen.queryByText('How does the welcome credit offer work?')).toBeNull();
  });
});
