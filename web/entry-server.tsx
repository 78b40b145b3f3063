// The server's renderer (built by `npm run build` into the build's ssr/ folder, scripts/build.ts):
// api/pages/serverRender.ts renders the home page and a competition page with it, so their largest
// element (the hero, the competition's image) is in the HTML and paints before any script runs;
// the browser then hydrates that HTML (web/main.tsx). Only a visitor's page: the seed says so.

import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { ServerStyleSheet } from 'styled-components';
import { Router } from 'wouter';
import type { StoreApi } from 'zustand';
import { App } from './App';
import { type PageSeed, setServerSeed } from './ssr/seed';
import { useAuth } from './stores/auth';
import { usePromotions } from './stores/promotions';
import { useSite } from './stores/site';

export type { PageSeed } from './ssr/seed';

export interface RenderedPage {
  /** The markup that goes inside #root. */
  html: string;
  /** styled-components' <style> elements for that markup (to go in <head>). */
  styles: string;
}

/**
 * Puts `state` in a store for the server's render. zustand renders a store's *initial* state on
 * the server (its getServerSnapshot), so that is what changes, in place, as well as the current one.
 * Safe because renders run one at a time (below) and every render sets every seeded field.
 */
function seedStore<T>(store: StoreApi<T>, state: Partial<T>) {
  Object.assign(store.getInitialState() as object, state);
  store.setState(state);
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Renders `url` (path and query) as `seed` says, waiting for every lazily loaded part (the page's
 * chunk, the footer). The stores are module state, shared by every render: renders wait their turn.
 */
export function render(url: string, seed: PageSeed): Promise<RenderedPage> {
  const run = queue.then(() => renderNow(url, seed));
  queue = run.catch(() => undefined);
  return run;
}

async function renderNow(url: string, seed: PageSeed): Promise<RenderedPage> {
  setServerSeed(seed);
  seedStore(useSite, { ...seed.site, loaded: true });
  seedStore(usePromotions, { signUpOffer: seed.promotions.signUpOffer, status: 'done' });
  seedStore(useAuth, { user: seed.session.user, status: 'ready' });
  const sheet = new ServerStyleSheet();
  // React leaves a part that failed to render for the browser to render, with an inline script
  // that the site's Content-Security-Policy refuses: any error fails the render instead (the
  // caller then serves the app shell).
  const errors: unknown[] = [];
  try {
    const { prelude } = await prerenderToNodeStream(
      sheet.collectStyles(
        <StrictMode>
          <Router ssrPath={url}>
            <App />
          </Router>
        </StrictMode>,
      ),
      {
        onError: (err) => void errors.push(err),
        // Every part inline, in order: without this React sends a large part (the home page) after
        // the rest, moved into place by an inline script, which the Content-Security-Policy refuses.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
      },
    );
    let html = '';
    for await (const chunk of prelude) html += chunk.toString();
    if (errors.length > 0) throw errors[0];
    return { html, styles: sheet.getStyleTags() };
  } finally {
    sheet.seal();
    setServerSeed(undefined);
  }
}
