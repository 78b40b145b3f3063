// Latin only: the site is in English and prices are in pounds (U+00A3 is in the latin subset), so
// the other subsets' @font-face rules would only add CSS. Inter 400 latin is preloaded from
// index.html (scripts/preloadFont.ts).
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-500.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/poppins/latin-600.css';
import '@fontsource/poppins/latin-700.css';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { keepReferralFromUrl } from './stores/referral';

// A referral link's ?ref= is kept before anything else runs: the server-rendered pages hydrate in a
// transition, whose effects may come after the visitor has already moved on.
keepReferralFromUrl();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The home and competition pages arrive rendered by the server (web/entry-server.tsx): take that
// markup over. Every other page arrives as an empty #root. Hydrating in a transition lets React
// yield to the browser every few milliseconds (a default-priority hydration runs in one task,
// the page's longest on a slow phone); the page is already painted and its links work meanwhile.
if (root.hasChildNodes()) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);

// The service worker (web/public/sw.js): the offline page and web push. Registered once the page
// has loaded, so it never competes with the first paint; it asks for nothing by itself.
if ('serviceWorker' in navigator && window.isSecureContext) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });
}
