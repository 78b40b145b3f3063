import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAGE_SEED_ID, type PageSeed, scriptJson } from '../../contract/pageSeed';
import { jsonResponse, stubApi } from './fakeApi';

// A page the server rendered carries what it was rendered with (web/ssr/seed.ts,
// api/pages/pageSeed.ts): the browser's first render takes the same data (no request for it, no
// loading state), and what depends on the clock or the screen renders as the server did until
// the hydration is over.

const RENDERED_AT = Date.parse('2026-11-27T12:00:00Z');
const SEED: PageSeed = {
  api: { '/api/admin/hero-image': { imageUrl: '/in-page.svg', isDefault: false } },
  session: { user: null },
  site: {
    siteName: 'Seeded Prizes',
    supportEmail: 'help@seeded.example',
    promoter: { name: null, companyNumber: null, address: null, phone: null, email: null },
    charities: [],
  },
  promotions: { signUpOffer: { creditAmount: 5, validUntil: null } },
  renderedAt: RENDERED_AT,
};

let web: {
  useApiData: typeof import('../../web/api/useApiData').useApiData;
  useSite: typeof import('../../web/stores/site').useSite;
  usePromotions: typeof import('../../web/stores/promotions').usePromotions;
  useAuth: typeof import('../../web/stores/auth').useAuth;
  useCart: typeof import('../../web/stores/cart').useCart;
  useCountdown: typeof import('../../web/components/competitions/useCountdown').useCountdown;
  useMediaQuery: typeof import('../../web/components/ui/useMediaQuery').useMediaQuery;
};

beforeAll(async () => {
  // A stale copy of a signed-in user and a stored cart: the seed (a visitor's page) wins the first render.
  sessionStorage.setItem('wcp.user', JSON.stringify({ id: 9, username: 'stale', role: 'customer' }));
  const script = document.createElement('script');
  script.id = PAGE_SEED_ID;
  script.type = 'application/json';
  script.textContent = scriptJson(SEED);
  document.head.append(script);
  // The seed is read when the modules load, as in the browser.
  vi.resetModules();
  web = {
    useApiData: (await import('../../web/api/useApiData')).useApiData,
    useSite: (await import('../../web/stores/site')).useSite,
    usePromotions: (await import('../../web/stores/promotions')).usePromotions,
    useAuth: (await import('../../web/stores/auth')).useAuth,
    useCart: (await import('../../web/stores/cart')).useCart,
    useCountdown: (await import('../../web/components/competitions/useCountdown')).useCountdown,
    useMediaQuery: (await import('../../web/components/ui/useMediaQuery')).useMediaQuery,
  };
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the page seed', () => {
  it('escapes every < so the JSON cannot end its script element', () => {
    const text = scriptJson({ title: '</script><script>alert(1)</script><!--' });
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ title: '</script><script>alert(1)</script><!--' });
  });

  it('starts the stores from it: site names, the offer, a visitor (not the stale copy)', () => {
    expect(web.useSite.getState()).toMatchObject({ siteName: 'Seeded Prizes', loaded: true });
    expect(web.usePromotions.getState()).toMatchObject({ signUpOffer: { creditAmount: 5 }, status: 'done' });
    expect(web.useAuth.getState()).toMatchObject({ user: null, status: 'ready' });
    // The hydration renders the server's empty cart (zustand's initial state); the stored copy follows.
    expect(web.useCart.getInitialState().items).toEqual([]);
  });

  it('renders an API answer from it on the first mount, without asking; later mounts ask', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'GET' && path === '/api/admin/hero-image'
        ? jsonResponse(200, { imageUrl: '/from-api.svg', isDefault: false })
        : undefined,
    );
    function Hero() {
      const hero = web.useApiData<{ imageUrl: string }>('/api/admin/hero-image');
      return <p>{hero.loading ? 'loading' : hero.data?.imageUrl}</p>;
    }
    render(<Hero />);
    expect(screen.getByText('/in-page.svg')).toBeTruthy();
    await act(async () => {});
    expect(fetchMock).not.toHaveBeenCalled();

    cleanup();
    render(<Hero />);
    expect(screen.getByText('loading')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('/from-api.svg')).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('hydrates the clock and the screen as the server rendered them, then shows the real ones', async () => {
    // The draw is 1 day and 30 s after the server's render; the browser's clock is 10 s later.
    const end = new Date(RENDERED_AT + 86_400_000 + 30_000).toISOString();
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    function Timer() {
      const { days, seconds } = web.useCountdown(end);
      const phone = web.useMediaQuery('(max-width: 479px)');
      return (
        <p data-testid="timer">
          {days}d {seconds}s {phone ? 'phone' : 'wide'}
        </p>
      );
    }
    // What the server sends: its clock, no screen.
    const html = renderToString(<Timer />);
    expect(html).toContain('1<!-- -->d <!-- -->30<!-- -->s <!-- -->wide');

    vi.useFakeTimers({ now: RENDERED_AT + 10_000, toFake: ['Date'] });
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable: unknown[] = [];
    await act(async () => {
      hydrateRoot(container, <Timer />, { onRecoverableError: (err) => void recoverable.push(err) });
    });
    expect(recoverable).toEqual([]);
    // Hydrated: now the browser's clock and screen.
    expect(container.textContent).toBe('1d 20s phone');
    vi.useRealTimers();
    container.remove();
  });
});
