import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from './fakeApi';

// The answers the server puts in a page (api/draws/pageData.ts): the first render shows them
// without asking the API, and only once; any later mount asks the server for fresh data.

let useApiData: typeof import('../../web/api/useApiData').useApiData;

beforeAll(async () => {
  const script = document.createElement('script');
  script.id = 'page-data';
  script.type = 'application/json';
  script.textContent = JSON.stringify({ '/api/admin/hero-image': { imageUrl: '/in-page.svg' } });
  document.head.append(script);
  // The page's data is read when the module loads, as in the browser.
  vi.resetModules();
  ({ useApiData } = await import('../../web/api/useApiData'));
});

function Hero() {
  const hero = useApiData<{ imageUrl: string }>('/api/admin/hero-image');
  return <p>{hero.loading ? 'loading' : hero.data?.imageUrl}</p>;
}

describe('data put in the page by the server', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('renders at once on the first mount, then comes from the API', async () => {
    const fetchMock = stubApi((method, path) =>
      method === 'GET' && path === '/api/admin/hero-image'
        ? jsonResponse(200, { imageUrl: '/from-api.svg' })
        : undefined,
    );
    render(<Hero />);
    // The first render already has it: no loading state, no request.
    expect(screen.getByText('/in-page.svg')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    cleanup();
    render(<Hero />);
    expect(screen.getByText('loading')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('/from-api.svg')).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
