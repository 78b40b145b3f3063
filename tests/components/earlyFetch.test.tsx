import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { earlyRequestFor, fetchEarly, preloadCompetitionImage } from '../../web/api/earlyFetch';
import { useApiData } from '../../web/api/useApiData';
import { jsonResponse, stubApi } from './fakeApi';

// The entry script starts the competition page's first request before the page's chunk loads
// (web/api/earlyFetch.ts): the page must show that answer without asking twice, and never show
// an old one.

function Title({ path }: { path: string }) {
  const { data } = useApiData<{ title: string }>(path);
  return <p>{data ? data.title : 'loading'}</p>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
});

describe('the early request of a page', () => {
  it('is the API path the competition page asks for, and none for other pages', () => {
    expect(earlyRequestFor('/competition/13')).toBe('/api/competitions/13');
    expect(earlyRequestFor('/competitions/13/')).toBe('/api/competitions/13');
    expect(earlyRequestFor('/competitions')).toBeNull();
    expect(earlyRequestFor('/')).toBeNull();
    expect(earlyRequestFor('/competition/%E0%A4%A')).toBeNull(); // not decodable: the page decides
  });

  it('is taken by the first useApiData of that path: one request, then a reload asks again', async () => {
    let served = 0;
    const fetchMock = stubApi((_method, path) =>
      path === '/api/competitions/13' ? jsonResponse(200, { title: `Watch ${++served}` }) : undefined,
    );
    await fetchEarly('/api/competitions/13');
    render(<Title path="/api/competitions/13" />);
    expect(await screen.findByText('Watch 1')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    cleanup();
    render(<Title path="/api/competitions/13" />);
    expect(await screen.findByText('Watch 2')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('is not used once more than 10 s old: the page asks the server again', async () => {
    let served = 0;
    stubApi((_method, path) =>
      path === '/api/competitions/13' ? jsonResponse(200, { title: `Watch ${++served}` }) : undefined,
    );
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now);
    await fetchEarly('/api/competitions/13');
    clock.mockReturnValue(now + 10_001);
    render(<Title path="/api/competitions/13" />);
    expect(await screen.findByText('Watch 2')).toBeTruthy();
    clock.mockRestore();
  });

  it('preloads the competition image, or the placeholder the page shows when it has none', () => {
    preloadCompetitionImage({ image: '/uploads/watch.webp' });
    preloadCompetitionImage({ image: null });
    preloadCompetitionImage(undefined); // a failed early request: nothing to preload
    const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')];
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/uploads/watch.webp',
      '/images/placeholder.svg',
    ]);
  });
});
