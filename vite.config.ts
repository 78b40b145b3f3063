import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { preloadFont } from './scripts/preloadFont';
import { pureValibot } from './scripts/pureValibot';

// The client lives in web/ and builds to dist/web, which the Koa server serves in production.
// In development (`npm run dev`) Vite serves the client with hot reload and proxies the API.
const apiTarget = `http://localhost:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  // The body font (Inter 400, latin: web/main.tsx) is preloaded: it is on every page above the fold.
  plugins: [react(), pureValibot(), preloadFont('inter-latin-400-normal')],
  // No source maps: they would publish the whole source to every visitor (`npm run dev` serves
  // the sources for debugging). `npm run build` (scripts/build.ts) swaps each build in whole.
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // contract/ holds definitions and pure helpers only (contract/README.md): a page that uses
      // one constant of a module need not load the module's schemas and what they import.
      treeshake: { moduleSideEffects: [{ test: /[\\/]contract[\\/][^\\/]+\.ts$/, sideEffects: false }] },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true },
      '/uploads': { target: apiTarget },
    },
  },
});
