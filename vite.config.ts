import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { componentIds } from './scripts/componentIds';
import { preloadFont } from './scripts/preloadFont';
import { pureValibot } from './scripts/pureValibot';
import { shellChunk } from './scripts/shellChunk';

// The client lives in web/ and builds to dist/web, which the Koa server serves in production.
// In development (`npm run dev`) Vite serves the client with hot reload and proxies the API.
const shell = shellChunk();
const apiTarget = `http://localhost:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  // The body font (Inter 400, latin: web/main.tsx) is preloaded: it is on every page above the
  // fold. So is the headings' Poppins 700 (9 KB): swapped in late, it rewrapped the h1 and moved
  // what follows it (Lighthouse's layout-shifts audit on the home and competition pages).
  plugins: [
    react(),
    // Styled components named by where they are declared, the same in the browser's bundle and the
    // server's renderer (scripts/componentIds.ts).
    componentIds(),
    pureValibot(),
    preloadFont('inter-latin-400-normal'),
    preloadFont('poppins-latin-700-normal'),
    // With the home and competition pages rendered by the server, their text paints before any
    // font has arrived: Inter 600 (the hero's offer, the competition's dates) and Poppins 600 (the
    // buttons) swapped in late rewrapped lines and moved what follows them (CLS 0.019 on both).
    preloadFont('inter-latin-600-normal'),
    preloadFont('poppins-latin-600-normal'),
    shell.plugin,
  ],
  // No source maps: they would publish the whole source to every visitor (`npm run dev` serves
  // the sources for debugging). `npm run build` (scripts/build.ts) swaps each build in whole.
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The libraries every page runs, apart from the app's code: they change less often
            // than the app, so a deploy usually leaves the browser's cached copy valid. Not
            // Socket.IO: it loads after the first paint, as a chunk of its own (web/live/socket.ts).
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|styled-components|stylis|wouter|regexparam|zustand|use-sync-external-store|valibot)[\\/]/,
              priority: 2,
            },
            // The rest of the first load in one file (scripts/shellChunk.ts).
            { name: 'shell', test: (id) => shell.isShellModule(id), priority: 1 },
          ],
        },
      },
      // contract/ holds definitions and pure helpers only (contract/README.md): a page that uses
      // one constant of a module need not load the module's schemas and what they import.
      treeshake: { moduleSideEffects: [{ test: /[\\/]contract[\\/][^\\/]+\.ts$/, sideEffects: false }] },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: {
      // Not the client's own modules under web/api/ (/api/client.ts, /api/useApiData.ts), which
      // share the prefix: proxied, they were the API's 404 and no page loaded.
      '^/api/(?!.*\\.tsx?(?:\\?|$))': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true },
      '/uploads': { target: apiTarget },
    },
  },
});
