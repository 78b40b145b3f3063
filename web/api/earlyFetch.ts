import { apiGet } from './client';

// A page's first API request started by the entry script, before the page's lazy chunk has been
// fetched and run: the competition page otherwise asks for its competition only after its chunk
// arrives, and its image (the LCP element) only after that answer (docs/performance.md, "Web quality").

/** Older than this, an unclaimed answer is not used: the page asks again. */
const FRESH_MS = 10_000;

const started = new Map<string, { at: number; response: Promise<unknown> }>();

/** Starts GET `path` now, for the first useApiData(path) to take; resolves with the answer. */
export function fetchEarly(path: string): Promise<unknown> {
  const response = apiGet<unknown>(path);
  started.set(path, { at: Date.now(), response });
  // Claimed or not, a failure must not be reported as unhandled here; the claimer sees it.
  return response.catch(() => undefined);
}

/**
 * Fetches the competition's image (the competition page's LCP element) as soon as its URL is
 * known, at high priority, instead of once React has rendered the page: the <img> then finds it
 * in the preload cache.
 */
export function preloadCompetitionImage(competition: unknown): void {
  if (typeof competition !== 'object' || competition === null) return;
  const image = (competition as { image?: unknown }).image;
  if (image === '') return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  // The same URL as CompetitionDetailPage's <img>.
  link.href = typeof image === 'string' ? image : '/images/placeholder.svg';
  link.fetchPriority = 'high';
  document.head.append(link);
}

/** The early request for `path`, once (a reload asks the server again), if still fresh. */
export function takeEarly<T>(path: string): Promise<T> | undefined {
  const early = started.get(path);
  if (!early) return undefined;
  started.delete(path);
  return Date.now() - early.at <= FRESH_MS ? (early.response as Promise<T>) : undefined;
}

/** The data the page at `pathname` asks for first, when that is worth starting early. */
export function earlyRequestFor(pathname: string): string | null {
  const competition = /^\/competitions?\/([^/]+)\/?$/.exec(pathname);
  if (!competition?.[1]) return null;
  // The same path as CompetitionDetailPage builds from the route parameter (wouter decodeURIs
  // the location); a path wouter could not decode is left to the page.
  try {
    return `/api/competitions/${encodeURIComponent(decodeURI(competition[1]))}`;
  } catch {
    return null;
  }
}
