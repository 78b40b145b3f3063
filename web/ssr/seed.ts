import { useSyncExternalStore } from 'react';
import { PAGE_SEED_ID, type PageSeed } from '../../contract/pageSeed';

export type { PageSeed } from '../../contract/pageSeed';

function readSeed(): PageSeed | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(PAGE_SEED_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as PageSeed;
  } catch {
    return undefined;
  }
}

// In the browser: the page's seed, read once as the modules load (the stores start from it). On the
// server: the seed of the render in progress (setServerSeed; one render at a time).
let seed: PageSeed | undefined = readSeed();

/** The seed of this page (browser) or of the render in progress (server); undefined without one. */
export const pageSeed = (): PageSeed | undefined => seed;

/** Server only: the seed the next render reads, or undefined once it is done. */
export function setServerSeed(next: PageSeed | undefined): void {
  seed = next;
}

/**
 * Takes the seeded API answer for `path`, once: the first component that asks for it renders it
 * (and hydrates), later ones ask the API for a fresh copy.
 */
export function takeSeededAnswer(path: string): void {
  if (typeof document !== 'undefined' && seed && path in seed.api) delete seed.api[path];
}

const subscribeNever = () => () => {};

/**
 * False while the server renders and while the browser hydrates what it rendered, true in every
 * other render (React re-renders once hydrated). What differs between the server and the browser
 * (the clock, the screen) renders the server's way while false.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );

/** The moment a render that is not `useHydrated()` shows: the server's clock at its render. */
export const renderTime = (): number => seed?.renderedAt ?? Date.now();
