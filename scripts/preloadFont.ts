// A Vite plugin that preloads the body font from index.html. Without it the browser finds the
// font only after it has fetched and run the CSS and laid out text, then swaps it in late (a
// visible reflow). The font file's name is hashed at build time, so the link is written once the
// bundle is known.

import type { Plugin } from 'vite';

/**
 * Adds `<link rel="preload" as="font" type="font/woff2" crossorigin>` for the emitted asset whose
 * name starts with `fileStem` (e.g. `inter-latin-400-normal`). Fails the build when no such font
 * was emitted, so a renamed font cannot silently drop the preload.
 */
export function preloadFont(fileStem: string): Plugin {
  return {
    name: 'preload-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const file = Object.keys(ctx.bundle ?? {}).find((name) => {
          const base = name.slice(name.lastIndexOf('/') + 1);
          return base.startsWith(`${fileStem}-`) && base.endsWith('.woff2');
        });
        if (!file) throw new Error(`preloadFont: no ${fileStem}*.woff2 in the build`);
        return [
          {
            tag: 'link',
            // Fonts are always fetched in CORS mode, so the preload must be too or it is wasted.
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
